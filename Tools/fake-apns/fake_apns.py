"""A fake Apple Push Notification service (APNs) provider API, for tests.

Apple documentation this follows (older copies live under .../setting_up_a_remote_notification_server/):
  https://developer.apple.com/documentation/usernotifications/sending-notification-requests-to-apns
  https://developer.apple.com/documentation/usernotifications/handling-notification-responses-from-apns
  https://developer.apple.com/documentation/usernotifications/establishing-a-token-based-connection-to-apns
  (mirror with the tables intact: https://apple-docs.everest.mt/docs/usernotifications/...)

Two listeners share one asyncio loop and one in-memory state:

* the push port: HTTP/2 over TLS, ALPN "h2" only, serving POST /3/device/<hex token>
  with token-based (JWT, ES256) authentication, answering with Apple's status codes and
  {"reason": ...} bodies;
* the control port: plain HTTP/1.1 + JSON for the tests that drive it:
    GET  /health        {"status": "ok"} once both ports listen (`make run` waits for it)
    GET  /received      accepted notifications: token, headers, payload, JWT header and claims, time
    GET  /attempts      every request on the push port with the status and reason it got
    POST /script        {"token": "<hex>" (omit for every token),
                         "answers": [{"status": 429, "reason": "TooManyRequests"}, ...],
                         "permanent": {"status": 410, "reason": "Unregistered"}}
                        "answers" are used up in order by requests that pass validation; then
                        "permanent" (if set) answers for good; otherwise 200 again.
                        A 410 without "timestamp" gets the current time in milliseconds.
    POST /expire-token  the JWT last accepted (or, if none yet, the next one) is from now on
                        answered with 403 ExpiredProviderToken; a newly signed JWT works
    POST /down          close the push listener and every open push connection (GOAWAY first),
                        so providers see "connection refused"
    POST /up            listen on the push port again
    POST /reset         forget everything above and listen again

Why h2 directly rather than hypercorn + ASGI: a fake APNs must control things an ASGI app
cannot see or change: refuse any ALPN but h2, see repeated header fields, send GOAWAY, and
close and reopen the listening socket on demand. With h2 all of that is a few lines.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import signal
import ssl
import time
import uuid
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from http import HTTPStatus
from pathlib import Path
from typing import Any

import h2.config
import h2.connection
import h2.events
import h2.exceptions
import jwt
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import load_pem_public_key

MAX_PAYLOAD_BYTES = 4096            # "sending notification requests": 4 KB for regular notifications
MAX_COLLAPSE_ID_BYTES = 64          # apns-collapse-id "mustn't exceed 64 bytes"
PROVIDER_TOKEN_MAX_AGE = 3600       # a provider token older than one hour is rejected
PROVIDER_TOKEN_FUTURE_LEEWAY = 60   # clock skew tolerated for an iat in the future
PRIORITIES = {"10", "5", "1"}       # the documented apns-priority values
DEVICE_PATH = "/3/device/"
SUPPORTED_PUSH_TYPE = "alert"       # this fake serves alert pushes only
# Apple documents no reason for a payload that is not a JSON object with an "aps"
# dictionary, so this one is the fake's own.
BAD_PAYLOAD_REASON = "BadPayload"
# Headers Apple answers 400 DuplicateHeaders for when repeated.
SINGLE_HEADERS = {
    "authorization", "apns-push-type", "apns-id", "apns-expiration",
    "apns-priority", "apns-topic", "apns-collapse-id",
}
UUID_RE = re.compile(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")
HEX_RE = re.compile(r"(?:[0-9a-fA-F]{2})+")
DIGITS_RE = re.compile(r"[0-9]+")


@dataclass(frozen=True)
class Config:
    """Command-line settings."""

    host: str
    port: int
    control_port: int
    cert: Path
    key: Path
    team_id: str
    key_id: str
    public_key: ec.EllipticCurvePublicKey
    bundle_ids: frozenset[str]


@dataclass(frozen=True)
class Answer:
    """An APNs answer: status, and for errors the reason (and, for 410, a timestamp)."""

    status: int
    reason: str = ""
    timestamp: int | None = None

    def body(self) -> bytes:
        """The JSON error body, or nothing for a success."""
        if self.status == 200:
            return b""
        doc: dict[str, Any] = {"reason": self.reason}
        if self.timestamp is not None:
            doc["timestamp"] = self.timestamp
        return json.dumps(doc).encode()


OK = Answer(200)


class Rejection(Exception):
    """Raised while validating a request; carries the answer APNs would give."""

    def __init__(self, status: int, reason: str) -> None:
        super().__init__(f"{status} {reason}")
        self.answer = Answer(status, reason)


@dataclass
class PushRequest:
    """One HTTP/2 request as received on the push port."""

    headers: list[tuple[str, str]]
    body: bytearray = field(default_factory=bytearray)

    def header(self, name: str) -> str | None:
        """The first value of a header (names are lower case in HTTP/2)."""
        return next((value for key, value in self.headers if key == name), None)


@dataclass
class Notification:
    """A request that passed every check."""

    token: str
    headers: dict[str, str]
    payload: dict[str, Any]
    jwt_header: dict[str, Any]
    jwt_claims: dict[str, Any]
    provider_token: str


@dataclass
class State:
    """What tests can see and steer through the control port."""

    received: list[dict[str, Any]] = field(default_factory=list)
    attempts: list[dict[str, Any]] = field(default_factory=list)
    scripted: dict[str | None, deque[Answer]] = field(default_factory=dict)  # None: every token
    permanent: dict[str | None, Answer] = field(default_factory=dict)
    expired_jwts: set[str] = field(default_factory=set)
    last_jwt: str | None = None
    expire_next_jwt: bool = False

    def scripted_answer(self, token: str) -> Answer | None:
        """Next scripted answer for a token: its own first, then those for every token."""
        for scope in (token.lower(), None):
            queue = self.scripted.get(scope)
            if queue:
                return queue.popleft()
            if scope in self.permanent:
                return self.permanent[scope]
        return None

    def is_expired(self, jwt_token: str) -> bool:
        """Whether /expire-token has retired this JWT (a pending request claims it now)."""
        if self.expire_next_jwt:
            self.expire_next_jwt = False
            self.expired_jwts.add(jwt_token)
        return jwt_token in self.expired_jwts

    def expire_current_jwt(self) -> None:
        """Make the JWT in use (or the next one seen) answer 403 ExpiredProviderToken."""
        if self.last_jwt is None:
            self.expire_next_jwt = True
        else:
            self.expired_jwts.add(self.last_jwt)


# ---------------------------------------------------------------------------
# Validation: Apple's rules, in the order checked.
# ---------------------------------------------------------------------------

def device_token_from_path(path: str) -> str:
    """The hex device token in /3/device/<token>."""
    path = path.split("?", 1)[0]
    if path in (DEVICE_PATH, DEVICE_PATH.rstrip("/")):
        raise Rejection(400, "MissingDeviceToken")
    if not path.startswith(DEVICE_PATH):
        raise Rejection(404, "BadPath")
    token = path[len(DEVICE_PATH):]
    if not HEX_RE.fullmatch(token):
        raise Rejection(400, "BadDeviceToken")
    return token


def verify_provider_token(
    authorization: str | None, config: Config, state: State
) -> tuple[str, dict[str, Any], dict[str, Any]]:
    """Check `authorization: bearer <JWT>`; return the JWT, its header and its claims."""
    if not authorization or not authorization.strip():
        raise Rejection(403, "MissingProviderToken")
    scheme, _, token = authorization.strip().partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token:
        raise Rejection(403, "InvalidProviderToken")
    try:
        header = jwt.get_unverified_header(token)
        claims = jwt.decode(
            token,
            config.public_key,
            algorithms=["ES256"],
            # Apple's rules on iat are checked below; Apple defines no exp, nbf or aud.
            options={"verify_exp": False, "verify_nbf": False, "verify_iat": False,
                     "verify_aud": False, "verify_iss": False},
        )
    except jwt.PyJWTError:
        raise Rejection(403, "InvalidProviderToken") from None
    if header.get("alg") != "ES256" or header.get("kid") != config.key_id:
        raise Rejection(403, "InvalidProviderToken")
    if claims.get("iss") != config.team_id:
        raise Rejection(403, "InvalidProviderToken")
    issued_at = claims.get("iat")
    if isinstance(issued_at, bool) or not isinstance(issued_at, (int, float)):
        raise Rejection(403, "InvalidProviderToken")
    now = time.time()
    if issued_at > now + PROVIDER_TOKEN_FUTURE_LEEWAY:
        raise Rejection(403, "InvalidProviderToken")
    if now - issued_at > PROVIDER_TOKEN_MAX_AGE or state.is_expired(token):
        raise Rejection(403, "ExpiredProviderToken")
    return token, header, claims


def check_apns_headers(request: PushRequest, config: Config) -> None:
    """apns-id, apns-topic, apns-push-type, apns-priority, apns-expiration, apns-collapse-id."""
    apns_id = request.header("apns-id")
    if apns_id is not None and not UUID_RE.fullmatch(apns_id):
        raise Rejection(400, "BadMessageId")
    topic = request.header("apns-topic")
    if not topic:
        raise Rejection(400, "MissingTopic")
    if topic not in config.bundle_ids:
        raise Rejection(400, "BadTopic")
    if request.header("apns-push-type") != SUPPORTED_PUSH_TYPE:
        raise Rejection(400, "InvalidPushType")
    priority = request.header("apns-priority")
    if priority is not None and priority not in PRIORITIES:
        raise Rejection(400, "BadPriority")
    expiration = request.header("apns-expiration")
    if expiration is not None and not DIGITS_RE.fullmatch(expiration):
        raise Rejection(400, "BadExpirationDate")
    collapse_id = request.header("apns-collapse-id")
    if collapse_id is not None and len(collapse_id.encode()) > MAX_COLLAPSE_ID_BYTES:
        raise Rejection(400, "BadCollapseId")


def parse_payload(body: bytes) -> dict[str, Any]:
    """The JSON payload: at most 4096 bytes, an object with an "aps" dictionary holding an alert."""
    if not body:
        raise Rejection(400, "PayloadEmpty")
    if len(body) > MAX_PAYLOAD_BYTES:
        raise Rejection(413, "PayloadTooLarge")
    try:
        payload = json.loads(body)
    except (UnicodeDecodeError, ValueError):
        raise Rejection(400, BAD_PAYLOAD_REASON) from None
    if not isinstance(payload, dict) or not isinstance(payload.get("aps"), dict):
        raise Rejection(400, BAD_PAYLOAD_REASON)
    if "alert" not in payload["aps"]:  # apns-push-type alert must match the payload
        raise Rejection(400, "InvalidPushType")
    return payload


def validate(request: PushRequest, config: Config, state: State) -> Notification:
    """Apply every check; raise Rejection with Apple's answer at the first failure."""
    if request.header(":method") != "POST":
        raise Rejection(405, "MethodNotAllowed")
    token = device_token_from_path(request.header(":path") or "")
    names = [name for name, _ in request.headers]
    if any(names.count(name) > 1 for name in SINGLE_HEADERS):
        raise Rejection(400, "DuplicateHeaders")
    jwt_token, jwt_header, jwt_claims = verify_provider_token(
        request.header("authorization"), config, state
    )
    check_apns_headers(request, config)
    payload = parse_payload(bytes(request.body))
    return Notification(
        token=token,
        headers={name: value for name, value in request.headers if not name.startswith(":")},
        payload=payload,
        jwt_header=jwt_header,
        jwt_claims=jwt_claims,
        provider_token=jwt_token,
    )


# ---------------------------------------------------------------------------
# The push port: HTTP/2 over TLS.
# ---------------------------------------------------------------------------

class PushConnection(asyncio.Protocol):
    """One provider connection, speaking HTTP/2 through h2."""

    def __init__(self, server: FakeAPNs) -> None:
        self.server = server
        self.transport: asyncio.Transport | None = None
        self.h2 = h2.connection.H2Connection(
            h2.config.H2Configuration(client_side=False, header_encoding=None)
        )
        self.streams: dict[int, PushRequest] = {}

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        tls = transport.get_extra_info("ssl_object")
        if tls is None or tls.selected_alpn_protocol() != "h2":
            transport.close()  # APNs speaks HTTP/2 only
            return
        self.server.connections.add(self)
        self.h2.initiate_connection()
        self.flush()

    def connection_lost(self, exc: Exception | None) -> None:
        self.server.connections.discard(self)

    def data_received(self, data: bytes) -> None:
        try:
            events = self.h2.receive_data(data)
        except h2.exceptions.ProtocolError:
            self.flush()
            self.close()
            return
        for event in events:
            if isinstance(event, h2.events.RequestReceived):
                headers = [(k.decode("latin-1"), v.decode("utf-8", "replace")) for k, v in event.headers]
                self.streams[event.stream_id] = PushRequest(headers)
            elif isinstance(event, h2.events.DataReceived):
                if event.stream_id in self.streams:
                    self.streams[event.stream_id].body += event.data
                self.h2.acknowledge_received_data(event.flow_controlled_length, event.stream_id)
            elif isinstance(event, h2.events.StreamEnded):
                request = self.streams.pop(event.stream_id, None)
                if request is not None:
                    self.respond(event.stream_id, request)
            elif isinstance(event, h2.events.StreamReset):
                self.streams.pop(event.stream_id, None)
            elif isinstance(event, h2.events.ConnectionTerminated):
                self.close()
        self.flush()

    def respond(self, stream_id: int, request: PushRequest) -> None:
        """Send the answer the server decides on."""
        answer, extra_headers = self.server.answer(request)
        body = answer.body()
        headers = [(":status", str(answer.status)), *extra_headers]
        if body:
            headers += [("content-type", "application/json"), ("content-length", str(len(body)))]
        self.h2.send_headers(stream_id, headers, end_stream=not body)
        if body:
            self.h2.send_data(stream_id, body, end_stream=True)

    def goaway(self, reason: str) -> None:
        """Send GOAWAY with a JSON reason, as APNs does, and close."""
        self.h2.close_connection(additional_data=json.dumps({"reason": reason}).encode())
        self.flush()
        self.close()

    def flush(self) -> None:
        if self.transport is not None:
            data = self.h2.data_to_send()
            if data:
                self.transport.write(data)

    def close(self) -> None:
        if self.transport is not None:
            self.transport.close()


# ---------------------------------------------------------------------------
# The server: state, answers, and the control port.
# ---------------------------------------------------------------------------

ControlHandler = Callable[[Any], Awaitable[dict[str, Any]]]


class ControlError(Exception):
    """A bad control-port request (answered 400)."""


def parse_scripted_answer(doc: Any) -> Answer:
    """An answer from /script: {"status": 400..599, "reason": str, "timestamp"?: int}."""
    if not isinstance(doc, dict):
        raise ControlError("an answer must be an object")
    status, reason, timestamp = doc.get("status"), doc.get("reason"), doc.get("timestamp")
    if isinstance(status, bool) or not isinstance(status, int) or not 400 <= status <= 599:
        raise ControlError("status must be an integer from 400 to 599")
    if not isinstance(reason, str) or not reason:
        raise ControlError("reason must be a non-empty string")
    if timestamp is not None and (isinstance(timestamp, bool) or not isinstance(timestamp, int)):
        raise ControlError("timestamp must be an integer (milliseconds since the epoch)")
    if status == 410 and timestamp is None:
        timestamp = int(time.time() * 1000)
    return Answer(status, reason, timestamp)


class FakeAPNs:
    """Both listeners and the state they share."""

    def __init__(self, config: Config) -> None:
        self.config = config
        self.state = State()
        self.connections: set[PushConnection] = set()
        self.push_server: asyncio.Server | None = None
        self.control_server: asyncio.Server | None = None
        self.push_port = config.port
        self.tls = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        self.tls.minimum_version = ssl.TLSVersion.TLSv1_2  # "HTTP/2 and TLS 1.2 or later"
        self.tls.load_cert_chain(config.cert, config.key)
        self.tls.set_alpn_protocols(["h2"])
        self.routes: dict[tuple[str, str], ControlHandler] = {
            ("GET", "/health"): self.get_health,
            ("GET", "/received"): self.get_received,
            ("GET", "/attempts"): self.get_attempts,
            ("POST", "/script"): self.post_script,
            ("POST", "/expire-token"): self.post_expire_token,
            ("POST", "/down"): self.post_down,
            ("POST", "/up"): self.post_up,
            ("POST", "/reset"): self.post_reset,
        }

    # -- push port --------------------------------------------------------

    def answer(self, request: PushRequest) -> tuple[Answer, list[tuple[str, str]]]:
        """Decide the answer to one request and record it; return it with response headers."""
        sent_id = request.header("apns-id")
        apns_id = sent_id if sent_id and UUID_RE.fullmatch(sent_id) else str(uuid.uuid4())
        headers = [("apns-id", apns_id)]
        notification: Notification | None = None
        try:
            notification = validate(request, self.config, self.state)
        except Rejection as rejection:
            answer = rejection.answer
        else:
            self.state.last_jwt = notification.provider_token
            answer = self.state.scripted_answer(notification.token) or OK
        if answer.status == 200 and notification is not None:
            unique_id = str(uuid.uuid4())
            headers.append(("apns-unique-id", unique_id))
            self.state.received.append({
                "token": notification.token,
                "apns_id": apns_id,
                "apns_unique_id": unique_id,
                "headers": notification.headers,
                "payload": notification.payload,
                "jwt_header": notification.jwt_header,
                "jwt_claims": notification.jwt_claims,
                "received_at": time.time(),
            })
        self.state.attempts.append({
            "method": request.header(":method"),
            "path": request.header(":path"),
            "apns_id": apns_id,
            "status": answer.status,
            "reason": answer.reason or None,
            "at": time.time(),
        })
        return answer, headers

    async def push_up(self) -> None:
        """Listen on the push port (the same port every time)."""
        if self.push_server is None:
            self.push_server = await asyncio.get_running_loop().create_server(
                lambda: PushConnection(self), self.config.host, self.push_port,
                ssl=self.tls, reuse_address=True,
            )
            self.push_port = int(self.push_server.sockets[0].getsockname()[1])

    async def push_down(self) -> None:
        """Stop listening and drop every open push connection."""
        if self.push_server is not None:
            self.push_server.close()
            for connection in list(self.connections):
                connection.goaway("Shutdown")
            await self.push_server.wait_closed()
            self.push_server = None

    # -- control port -----------------------------------------------------

    async def get_health(self, _doc: Any) -> dict[str, Any]:
        return {"status": "ok"}

    async def get_received(self, _doc: Any) -> dict[str, Any]:
        return {"notifications": self.state.received}

    async def get_attempts(self, _doc: Any) -> dict[str, Any]:
        return {"attempts": self.state.attempts}

    async def post_script(self, doc: Any) -> dict[str, Any]:
        if not isinstance(doc, dict) or not ({"answers", "permanent"} & doc.keys()):
            raise ControlError('expected {"token"?, "answers"?: [...], "permanent"?: {...}}')
        token = doc.get("token")
        if token is not None and (not isinstance(token, str) or not HEX_RE.fullmatch(token)):
            raise ControlError("token must be a hex string")
        scope = token.lower() if token else None
        answers = doc.get("answers", [])
        if not isinstance(answers, list):
            raise ControlError("answers must be a list")
        parsed = [parse_scripted_answer(item) for item in answers]
        if "permanent" in doc:
            self.state.permanent[scope] = parse_scripted_answer(doc["permanent"])
        self.state.scripted.setdefault(scope, deque()).extend(parsed)
        return {"ok": True}

    async def post_expire_token(self, _doc: Any) -> dict[str, Any]:
        self.state.expire_current_jwt()
        return {"ok": True}

    async def post_down(self, _doc: Any) -> dict[str, Any]:
        await self.push_down()
        return {"ok": True}

    async def post_up(self, _doc: Any) -> dict[str, Any]:
        await self.push_up()
        return {"ok": True, "port": self.push_port}

    async def post_reset(self, _doc: Any) -> dict[str, Any]:
        self.state = State()
        await self.push_up()
        return {"ok": True}

    async def handle_control(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        """Serve one HTTP/1.1 request (Content-Length bodies only), then close."""
        try:
            head = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1")
            request_line, *header_lines = head.split("\r\n")
            method, target, _version = request_line.split(" ", 2)
            headers = dict(
                (name.strip().lower(), value.strip())
                for name, value in (line.split(":", 1) for line in header_lines if line)
            )
            body = await reader.readexactly(int(headers.get("content-length", "0")))
            handler = self.routes.get((method, target.split("?", 1)[0]))
            if handler is None:
                known = any(path == target.split("?", 1)[0] for _, path in self.routes)
                status, doc = (405, {"error": "method not allowed"}) if known else (404, {"error": "not found"})
            else:
                status, doc = 200, await handler(json.loads(body) if body.strip() else None)
        except ControlError as error:
            status, doc = 400, {"error": str(error)}
        except (ValueError, asyncio.IncompleteReadError, asyncio.LimitOverrunError):
            status, doc = 400, {"error": "malformed request"}
        data = json.dumps(doc).encode()
        writer.write(
            f"HTTP/1.1 {status} {HTTPStatus(status).phrase}\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n"
            "Connection: close\r\n\r\n".encode() + data
        )
        try:
            await writer.drain()
        finally:
            writer.close()

    # -- lifecycle --------------------------------------------------------

    async def start(self) -> None:
        await self.push_up()
        self.control_server = await asyncio.start_server(
            self.handle_control, self.config.host, self.config.control_port, reuse_address=True
        )

    async def stop(self) -> None:
        await self.push_down()
        if self.control_server is not None:
            self.control_server.close()
            await self.control_server.wait_closed()

    @property
    def control_port(self) -> int:
        assert self.control_server is not None
        return int(self.control_server.sockets[0].getsockname()[1])


def load_public_key(path: Path) -> ec.EllipticCurvePublicKey:
    """The P-256 public key that provider tokens must verify against."""
    key = load_pem_public_key(path.read_bytes())
    if not isinstance(key, ec.EllipticCurvePublicKey) or key.curve.name != "secp256r1":
        raise SystemExit(f"{path}: not a P-256 public key")
    return key


def parse_args(argv: list[str] | None = None) -> Config:
    parser = argparse.ArgumentParser(description="Fake APNs provider API for tests.")
    parser.add_argument("--host", default="127.0.0.1", help="address for both ports")
    parser.add_argument("--port", type=int, default=2197, help="HTTP/2 TLS push port (0: any free)")
    parser.add_argument("--control-port", type=int, default=2198, help="HTTP/1.1 control port (0: any free)")
    parser.add_argument("--cert", type=Path, required=True, help="server certificate chain (PEM)")
    parser.add_argument("--key", type=Path, required=True, help="server private key (PEM)")
    parser.add_argument("--team-id", required=True, help="expected JWT iss")
    parser.add_argument("--key-id", required=True, help="expected JWT kid")
    parser.add_argument("--public-key", type=Path, required=True, help="P-256 public key (PEM) for JWTs")
    parser.add_argument("--bundle-id", action="append", required=True, help="accepted apns-topic (repeatable)")
    args = parser.parse_args(argv)
    return Config(
        host=args.host,
        port=args.port,
        control_port=args.control_port,
        cert=args.cert,
        key=args.key,
        team_id=args.team_id,
        key_id=args.key_id,
        public_key=load_public_key(args.public_key),
        bundle_ids=frozenset(args.bundle_id),
    )


async def serve(config: Config) -> None:
    """Run until SIGINT or SIGTERM."""
    server = FakeAPNs(config)
    await server.start()
    print(
        f"fake_apns ready push=https://{config.host}:{server.push_port} "
        f"control=http://{config.host}:{server.control_port}",
        flush=True,
    )
    stopping = asyncio.Event()
    loop = asyncio.get_running_loop()
    stops = {signal.SIGINT, signal.SIGTERM}
    for signum in stops:
        loop.add_signal_handler(signum, stopping.set)
    # A parent may hand its blocked signals down (Foundation's Process does, from `swift test`): unblocked, or the
    # fake would never hear that it should stop.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, stops)
    await stopping.wait()
    await server.stop()


if __name__ == "__main__":
    asyncio.run(serve(parse_args()))
