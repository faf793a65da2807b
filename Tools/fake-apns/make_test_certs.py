"""Make throw-away TLS and JWT keys for fake_apns.py.

Writes into the output directory:
  ca.pem              self-signed test CA (give this to the client as its trust root)
  server.pem          server certificate for localhost / 127.0.0.1 / ::1, signed by the CA
  server-key.pem      the server certificate's private key (PKCS#8, unencrypted)
  auth-key.p8         a P-256 provider-token signing key, PKCS#8 PEM like Apple's .p8 files
  auth-key-public.pem its public key, for fake_apns.py --public-key

Usage: python make_test_certs.py OUT_DIR
Nothing here is secret or fit for production.
"""

from __future__ import annotations

import argparse
import datetime as dt
import ipaddress
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

# Apple platforms refuse TLS server certificates valid for more than 825 days.
SERVER_CERT_DAYS = 365
CA_CERT_DAYS = 3650


def _name(common_name: str) -> x509.Name:
    return x509.Name([
        x509.NameAttribute(NameOID.ORGANIZATION_NAME, "fake-apns test"),
        x509.NameAttribute(NameOID.COMMON_NAME, common_name),
    ])


def _pem_key(key: ec.EllipticCurvePrivateKey) -> bytes:
    return key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )


def make_ca() -> tuple[x509.Certificate, ec.EllipticCurvePrivateKey]:
    """Return a self-signed CA certificate and its key."""
    key = ec.generate_private_key(ec.SECP256R1())
    now = dt.datetime.now(dt.UTC)
    name = _name("fake-apns test CA")
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(minutes=5))
        .not_valid_after(now + dt.timedelta(days=CA_CERT_DAYS))
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .add_extension(
            x509.KeyUsage(
                digital_signature=True, key_cert_sign=True, crl_sign=True,
                content_commitment=False, key_encipherment=False, data_encipherment=False,
                key_agreement=False, encipher_only=False, decipher_only=False,
            ),
            critical=True,
        )
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
        .sign(key, hashes.SHA256())
    )
    return cert, key


def make_server_cert(
    ca_cert: x509.Certificate, ca_key: ec.EllipticCurvePrivateKey
) -> tuple[x509.Certificate, ec.EllipticCurvePrivateKey]:
    """Return a server certificate for localhost, 127.0.0.1 and ::1, signed by the CA."""
    key = ec.generate_private_key(ec.SECP256R1())
    now = dt.datetime.now(dt.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(_name("localhost"))
        .issuer_name(ca_cert.subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(minutes=5))
        .not_valid_after(now + dt.timedelta(days=SERVER_CERT_DAYS))
        .add_extension(
            x509.SubjectAlternativeName([
                x509.DNSName("localhost"),
                x509.IPAddress(ipaddress.ip_address("127.0.0.1")),
                x509.IPAddress(ipaddress.ip_address("::1")),
            ]),
            critical=False,
        )
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(
            x509.KeyUsage(
                digital_signature=True, key_cert_sign=False, crl_sign=False,
                content_commitment=False, key_encipherment=False, data_encipherment=False,
                key_agreement=False, encipher_only=False, decipher_only=False,
            ),
            critical=True,
        )
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
        .add_extension(
            x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()), critical=False
        )
        .sign(ca_key, hashes.SHA256())
    )
    return cert, key


def write_test_material(out_dir: Path) -> dict[str, Path]:
    """Write the CA, server certificate/key and a JWT signing key pair; return their paths."""
    out_dir.mkdir(parents=True, exist_ok=True)
    ca_cert, ca_key = make_ca()
    server_cert, server_key = make_server_cert(ca_cert, ca_key)
    auth_key = ec.generate_private_key(ec.SECP256R1())
    files = {
        "ca": (out_dir / "ca.pem", ca_cert.public_bytes(serialization.Encoding.PEM)),
        "cert": (out_dir / "server.pem", server_cert.public_bytes(serialization.Encoding.PEM)),
        "key": (out_dir / "server-key.pem", _pem_key(server_key)),
        "auth_key": (out_dir / "auth-key.p8", _pem_key(auth_key)),
        "auth_public_key": (
            out_dir / "auth-key-public.pem",
            auth_key.public_key().public_bytes(
                serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
            ),
        ),
    }
    for path, data in files.values():
        path.write_bytes(data)
    return {label: path for label, (path, _) in files.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out_dir", type=Path)
    for label, path in write_test_material(parser.parse_args().out_dir).items():
        print(f"{label}: {path}")


if __name__ == "__main__":
    main()
