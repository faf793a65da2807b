"""End-to-end checks of fake_apns.py: a real server process, real HTTP/2 over TLS clients.

Run: venv/bin/python -m pytest -q test_fake_apns.py
"""

from __future__ import annotations

import asyncio
import json
import shutil
import ssl
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import jwt
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from make_test_certs import write_test_material

HERE = Path(__file__).resolve().parent
TEAM_ID = "TEAM123456"
KEY_ID = "KEY1234567"
BUNDLE_ID = "com.example.notifier"
OTHER_BUNDLE_ID = "com.example.other"
TOKEN = "a1" * 32
OTHER_TOKEN = "b2" * 32
ALERT = {"aps": {"alert": {"title": "Hello", "body": "World"}}}


class FakeServer:
    """Where the running fake listens, and the files it was given."""

    def __init__(self, push_url: str, control_url: str, files: dict[str, Path]) -> None:
        self.push_url = push_url
        self.control_url = control_url
        self.files = files
        self.signing_key = serialization.load_pem_private_key(files["auth_key"].read_bytes(), None)

    def control(self, method: str, path: str, body: Any = None) -> Any:
        response = httpx.request(method, self.control_url + path, json=body, timeout=5)
        response.raise_for_status()
        return response.json()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[FakeServer]:
    files = write_test_material(tmp_path_factory.mktemp("certs"))
    process = subprocess.Popen(
        [
            sys.executable, str(HERE / "fake_apns.py"),
            "--host", "127.0.0.1", "--port", "0", "--control-port", "0",
            "--cert", str(files["cert"]), "--key", str(files["key"]),
            "--team-id", TEAM_ID, "--key-id", KEY_ID,
            "--public-key", str(files["auth_public_key"]),
            "--bundle-id", BUNDLE_ID, "--bundle-id", OTHER_BUNDLE_ID,
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None
    ready = process.stdout.readline().split()
    assert ready[:2] == ["fake_apns", "ready"], ready
    urls = dict(part.split("=", 1) for part in ready[2:])
    try:
        yield FakeServer(urls["push"], urls["control"], files)
    finally:
        process.terminate()
        assert process.wait(timeout=10) == 0


@pytest.fixture(autouse=True)
def fresh_state(server: FakeServer) -> None:
    server.control("POST", "/reset")


@pytest.fixture
def client(server: FakeServer) -> Iterator[httpx.Client]:
    tls = ssl.create_default_context(cafile=str(server.files["ca"]))
    with httpx.Client(http1=False, http2=True, verify=tls, timeout=5) as http2_client:
        yield http2_client


def make_jwt(
    server: FakeServer,
    *,
    iat: float | None = None,
    iss: str = TEAM_ID,
    kid: str = KEY_ID,
    key: ec.EllipticCurvePrivateKey | None = None,
) -> str:
    claims = {"iss": iss, "iat": int(time.time()) if iat is None else int(iat)}
    return jwt.encode(claims, key or server.signing_key, algorithm="ES256", headers={"kid": kid})


def push(
    client: httpx.Client,
    server: FakeServer,
    *,
    token: str = TOKEN,
    payload: Any = ALERT,
    content: bytes | None = None,
    headers: dict[str, str | bytes] | list[tuple[str, str]] | None = None,
    omit: tuple[str, ...] = (),
    bearer: str | None = None,
) -> httpx.Response:
    """POST a notification; valid unless told otherwise."""
    base = {
        "authorization": f"bearer {bearer or make_jwt(server)}",
        "apns-topic": BUNDLE_ID,
        "apns-push-type": "alert",
        "apns-priority": "10",
        "apns-expiration": "0",
    }
    merged = [(k, v) for k, v in base.items() if k not in omit and not (isinstance(headers, dict) and k in headers)]
    merged += list(headers.items()) if isinstance(headers, dict) else list(headers or [])
    body = content if content is not None else json.dumps(payload).encode()
    response = client.post(f"{server.push_url}/3/device/{token}", headers=merged, content=body)
    assert response.http_version == "HTTP/2"
    return response


def reason(response: httpx.Response) -> str:
    return response.json()["reason"]


# -- success ---------------------------------------------------------------

def test_valid_notification_is_accepted_and_recorded(client: httpx.Client, server: FakeServer) -> None:
    apns_id = str(uuid.uuid4())
    response = push(client, server, headers={"apns-id": apns_id, "apns-collapse-id": "c" * 64})
    assert response.status_code == 200
    assert response.content == b""
    assert response.headers["apns-id"] == apns_id
    uuid.UUID(response.headers["apns-unique-id"])

    [received] = server.control("GET", "/received")["notifications"]
    assert received["token"] == TOKEN
    assert received["payload"] == ALERT
    assert received["headers"]["apns-topic"] == BUNDLE_ID
    assert received["jwt_claims"]["iss"] == TEAM_ID
    assert received["jwt_header"] == {"alg": "ES256", "kid": KEY_ID, "typ": "JWT"}
    assert received["apns_unique_id"] == response.headers["apns-unique-id"]
    assert abs(received["received_at"] - time.time()) < 5


def test_apns_id_is_generated_when_not_sent(client: httpx.Client, server: FakeServer) -> None:
    response = push(client, server, omit=("apns-priority", "apns-expiration"))
    assert response.status_code == 200
    uuid.UUID(response.headers["apns-id"])


def test_second_bundle_id_and_priority_5_are_accepted(client: httpx.Client, server: FakeServer) -> None:
    response = push(client, server, headers={"apns-topic": OTHER_BUNDLE_ID, "apns-priority": "5",
                                             "apns-expiration": str(int(time.time()) + 3600)})
    assert response.status_code == 200


def test_payload_of_exactly_4096_bytes_is_accepted(client: httpx.Client, server: FakeServer) -> None:
    skeleton = len(json.dumps({"aps": {"alert": ""}}).encode())
    body = json.dumps({"aps": {"alert": "x" * (4096 - skeleton)}}).encode()
    assert len(body) == 4096
    assert push(client, server, content=body).status_code == 200


# -- path, method, token ---------------------------------------------------

@pytest.mark.parametrize("token", ["not-hex", "abc", "zz" * 32])
def test_bad_device_token(client: httpx.Client, server: FakeServer, token: str) -> None:
    response = push(client, server, token=token)
    assert (response.status_code, reason(response)) == (400, "BadDeviceToken")


def test_missing_device_token(client: httpx.Client, server: FakeServer) -> None:
    response = push(client, server, token="")
    assert (response.status_code, reason(response)) == (400, "MissingDeviceToken")


def test_bad_path_and_method(client: httpx.Client, server: FakeServer) -> None:
    response = client.post(f"{server.push_url}/2/device/{TOKEN}", content=b"{}")
    assert (response.status_code, reason(response)) == (404, "BadPath")
    response = client.get(f"{server.push_url}/3/device/{TOKEN}")
    assert (response.status_code, reason(response)) == (405, "MethodNotAllowed")


# -- provider token (JWT) --------------------------------------------------

def test_missing_provider_token(client: httpx.Client, server: FakeServer) -> None:
    response = push(client, server, omit=("authorization",))
    assert (response.status_code, reason(response)) == (403, "MissingProviderToken")


@pytest.mark.parametrize("case", ["foreign key", "wrong kid", "wrong iss", "future iat", "not a jwt", "basic scheme"])
def test_invalid_provider_token(client: httpx.Client, server: FakeServer, case: str) -> None:
    if case == "basic scheme":
        response = push(client, server, headers={"authorization": f"basic {make_jwt(server)}"})
    else:
        bearer = {
            "foreign key": lambda: make_jwt(server, key=ec.generate_private_key(ec.SECP256R1())),
            "wrong kid": lambda: make_jwt(server, kid="OTHERKEYID"),
            "wrong iss": lambda: make_jwt(server, iss="OTHERTEAM1"),
            "future iat": lambda: make_jwt(server, iat=time.time() + 600),
            "not a jwt": lambda: "abc.def.ghi",
        }[case]()
        response = push(client, server, bearer=bearer)
    assert (response.status_code, reason(response)) == (403, "InvalidProviderToken")


def test_hs256_token_is_invalid(client: httpx.Client, server: FakeServer) -> None:
    bearer = jwt.encode({"iss": TEAM_ID, "iat": int(time.time())}, "a" * 32, algorithm="HS256",
                        headers={"kid": KEY_ID})
    response = push(client, server, bearer=bearer)
    assert (response.status_code, reason(response)) == (403, "InvalidProviderToken")


def test_token_older_than_an_hour_is_expired(client: httpx.Client, server: FakeServer) -> None:
    response = push(client, server, bearer=make_jwt(server, iat=time.time() - 3601))
    assert (response.status_code, reason(response)) == (403, "ExpiredProviderToken")
    assert push(client, server, bearer=make_jwt(server, iat=time.time() - 3500)).status_code == 200


def test_expire_token_control_retires_the_current_jwt(client: httpx.Client, server: FakeServer) -> None:
    current = make_jwt(server)
    assert push(client, server, bearer=current).status_code == 200
    server.control("POST", "/expire-token")
    response = push(client, server, bearer=current)
    assert (response.status_code, reason(response)) == (403, "ExpiredProviderToken")
    assert push(client, server, bearer=make_jwt(server)).status_code == 200


def test_expire_token_before_any_push_retires_the_next_jwt(client: httpx.Client, server: FakeServer) -> None:
    server.control("POST", "/expire-token")
    first = make_jwt(server)
    assert reason(push(client, server, bearer=first)) == "ExpiredProviderToken"
    assert push(client, server).status_code == 200


# -- apns-* headers ---------------------------------------------------------

@pytest.mark.parametrize(
    ("headers", "omit", "expected"),
    [
        ({"apns-topic": "com.example.unknown"}, (), "BadTopic"),
        ({}, ("apns-topic",), "MissingTopic"),
        ({}, ("apns-push-type",), "InvalidPushType"),
        ({"apns-push-type": "background"}, (), "InvalidPushType"),
        ({"apns-priority": "7"}, (), "BadPriority"),
        ({"apns-expiration": "tomorrow"}, (), "BadExpirationDate"),
        ({"apns-expiration": "-1"}, (), "BadExpirationDate"),
        ({"apns-collapse-id": "é" * 33}, (), "BadCollapseId"),  # 66 bytes
        ({"apns-id": "not-a-uuid"}, (), "BadMessageId"),
    ],
)
def test_bad_header(client: httpx.Client, server: FakeServer, headers: dict[str, str],
                    omit: tuple[str, ...], expected: str) -> None:
    # bytes, so that httpx sends the non-ASCII collapse id as UTF-8
    response = push(client, server, headers={k: v.encode() for k, v in headers.items()}, omit=omit)
    assert (response.status_code, reason(response)) == (400, expected)
    uuid.UUID(response.headers["apns-id"])
    assert "apns-unique-id" not in response.headers


def test_duplicate_headers(client: httpx.Client, server: FakeServer) -> None:
    response = push(client, server, omit=("apns-topic",),
                    headers=[("apns-topic", BUNDLE_ID), ("apns-topic", BUNDLE_ID)])
    assert (response.status_code, reason(response)) == (400, "DuplicateHeaders")


# -- payload ---------------------------------------------------------------

@pytest.mark.parametrize(
    ("content", "status", "expected"),
    [
        (b"", 400, "PayloadEmpty"),
        (json.dumps({"aps": {"alert": "x" * 4096}}).encode(), 413, "PayloadTooLarge"),
        (b"{not json", 400, "BadPayload"),
        (b"[1, 2]", 400, "BadPayload"),
        (json.dumps({"alert": "no aps"}).encode(), 400, "BadPayload"),
        (json.dumps({"aps": {"badge": 1}}).encode(), 400, "InvalidPushType"),
    ],
)
def test_bad_payload(client: httpx.Client, server: FakeServer, content: bytes, status: int, expected: str) -> None:
    response = push(client, server, content=content)
    assert (response.status_code, reason(response)) == (status, expected)


# -- scripted answers ------------------------------------------------------

def test_scripted_429_then_200(client: httpx.Client, server: FakeServer) -> None:
    server.control("POST", "/script", {"token": TOKEN, "answers": [
        {"status": 429, "reason": "TooManyRequests"},
        {"status": 429, "reason": "TooManyRequests"},
    ]})
    assert push(client, server, token=OTHER_TOKEN).status_code == 200  # other tokens unaffected
    for _ in range(2):
        response = push(client, server)
        assert (response.status_code, reason(response)) == (429, "TooManyRequests")
    assert push(client, server).status_code == 200
    received = server.control("GET", "/received")["notifications"]
    assert [item["token"] for item in received] == [OTHER_TOKEN, TOKEN]
    attempts = server.control("GET", "/attempts")["attempts"]
    assert [item["status"] for item in attempts] == [200, 429, 429, 200]


def test_scripted_permanent_410_unregistered(client: httpx.Client, server: FakeServer) -> None:
    server.control("POST", "/script", {"token": TOKEN.upper(),
                                       "permanent": {"status": 410, "reason": "Unregistered"}})
    for _ in range(3):
        response = push(client, server)
        assert response.status_code == 410
        body = response.json()
        assert body["reason"] == "Unregistered"
        assert abs(body["timestamp"] - time.time() * 1000) < 60_000  # milliseconds since the epoch
    assert push(client, server, token=OTHER_TOKEN).status_code == 200
    assert len(server.control("GET", "/received")["notifications"]) == 1


def test_scripted_answers_for_every_token(client: httpx.Client, server: FakeServer) -> None:
    server.control("POST", "/script", {"answers": [
        {"status": 500, "reason": "InternalServerError"},
        {"status": 503, "reason": "ServiceUnavailable"},
    ]})
    assert reason(push(client, server)) == "InternalServerError"
    assert reason(push(client, server, token=OTHER_TOKEN)) == "ServiceUnavailable"
    assert push(client, server).status_code == 200


def test_invalid_requests_do_not_use_up_scripted_answers(client: httpx.Client, server: FakeServer) -> None:
    server.control("POST", "/script", {"token": TOKEN, "answers": [{"status": 429, "reason": "TooManyRequests"}]})
    assert reason(push(client, server, headers={"apns-topic": "com.example.unknown"})) == "BadTopic"
    assert push(client, server).status_code == 429


def test_reset_forgets_everything(client: httpx.Client, server: FakeServer) -> None:
    server.control("POST", "/script", {"token": TOKEN, "permanent": {"status": 410, "reason": "Unregistered"}})
    assert push(client, server).status_code == 410
    server.control("POST", "/reset")
    assert server.control("GET", "/received") == {"notifications": []}
    assert push(client, server).status_code == 200


@pytest.mark.parametrize("body", [
    {"token": TOKEN},
    {"token": "xyz", "answers": []},
    {"answers": [{"status": 200, "reason": "OK"}]},
    {"answers": [{"status": 429}]},
    {"permanent": {"status": 410, "reason": "Unregistered", "timestamp": "soon"}},
])
def test_control_rejects_bad_scripts(server: FakeServer, body: dict[str, Any]) -> None:
    response = httpx.post(server.control_url + "/script", json=body)
    assert response.status_code == 400
    assert "error" in response.json()


def test_control_unknown_route_and_method(server: FakeServer) -> None:
    assert httpx.get(server.control_url + "/nope").status_code == 404
    assert httpx.get(server.control_url + "/reset").status_code == 405


# -- transport -------------------------------------------------------------

def test_down_refuses_connections_and_up_restores_them(client: httpx.Client, server: FakeServer) -> None:
    assert push(client, server).status_code == 200  # an open connection exists
    server.control("POST", "/down")
    with pytest.raises(httpx.TransportError):
        push(client, server)  # the open connection was closed with GOAWAY
    with pytest.raises(httpx.ConnectError):
        push(client, server)  # and new ones are refused
    server.control("POST", "/up")
    assert push(client, server).status_code == 200


def test_http1_only_clients_are_refused(server: FakeServer) -> None:
    tls = ssl.create_default_context(cafile=str(server.files["ca"]))
    with httpx.Client(http1=True, http2=False, verify=tls) as http1_client, pytest.raises(httpx.TransportError):
        http1_client.post(f"{server.push_url}/3/device/{TOKEN}", content=b"{}")


def curl_has_http2() -> bool:
    if shutil.which("curl") is None:
        return False
    return "HTTP2" in subprocess.run(["curl", "-V"], capture_output=True, text=True).stdout


@pytest.mark.skipif(not curl_has_http2(), reason="curl without HTTP/2 support")
def test_curl_http2(server: FakeServer) -> None:
    def curl(*headers: str) -> list[str]:
        out = subprocess.run(
            ["curl", "-sS", "--http2", "--cacert", str(server.files["ca"]),
             "-o", "-", "-w", "\n%{http_code} %{http_version}",
             *[arg for header in headers for arg in ("-H", header)],
             "--data-binary", json.dumps(ALERT), f"{server.push_url}/3/device/{TOKEN}"],
            capture_output=True, text=True, check=True,
        ).stdout
        return out.rsplit("\n", 1)

    common = (f"apns-topic: {BUNDLE_ID}", "apns-push-type: alert")
    assert curl(f"authorization: bearer {make_jwt(server)}", *common) == ["", "200 2"]
    body, status = curl(f"authorization: bearer {make_jwt(server)}", "apns-topic: nope", "apns-push-type: alert")
    assert (json.loads(body), status) == ({"reason": "BadTopic"}, "400 2")
    body, status = curl(*common)
    assert (json.loads(body), status) == ({"reason": "MissingProviderToken"}, "403 2")


def test_many_concurrent_streams_on_one_connection(server: FakeServer) -> None:
    async def run() -> list[int]:
        tls = ssl.create_default_context(cafile=str(server.files["ca"]))
        bearer = make_jwt(server)
        headers = {"authorization": f"bearer {bearer}", "apns-topic": BUNDLE_ID, "apns-push-type": "alert"}
        async with httpx.AsyncClient(http1=False, http2=True, verify=tls, timeout=10) as async_client:
            responses = await asyncio.gather(*[
                async_client.post(f"{server.push_url}/3/device/{index:064x}", headers=headers, json=ALERT)
                for index in range(50)
            ])
        return [response.status_code for response in responses]

    assert asyncio.run(run()) == [200] * 50
    assert len(server.control("GET", "/received")["notifications"]) == 50


def test_body_larger_than_the_flow_control_window(client: httpx.Client, server: FakeServer) -> None:
    response = push(client, server, content=b"x" * 200_000)
    assert (response.status_code, reason(response)) == (413, "PayloadTooLarge")
    assert push(client, server).status_code == 200  # the connection still works
