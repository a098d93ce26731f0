"""A software passkey authenticator, built from the fido2 package's WebAuthn data types (the
CBOR encoder, COSE keys, authenticator data, client data) and the cryptography package's keys:
what a phone does for a PWA between navigator.credentials.create()/get() and the server.

    python3 soft_authenticator.py create <state.json> <origin> <options.json text> [flags]
    python3 soft_authenticator.py get    <state.json> <origin> <options.json text> [flags]

`create` makes a credential for the creation options, keeps its private key and counter in
state.json, and prints the RegistrationResponseJSON (PublicKeyCredential.toJSON()). `get` signs
the request options' challenge with the credential in state.json and prints the
AuthenticationResponseJSON. Flags, each to make one refusal the server must give:
    --alg rs256        an RSA key (RS256) instead of P-256 (ES256)
    --fmt packed       a packed self attestation instead of none
    --fmt packed-x5c   a packed attestation by a (self-signed) attestation certificate
    --fmt forged       a packed self attestation signed by another key than the credential's
    --no-uv            the user-verified flag off
    --rp-id ID         sign for another relying party id than the options'
    --type TYPE        another clientDataJSON type
    --counter N        the signature counter to send (default: one more than last time)
"""

import base64
import datetime
import hashlib
import json
import os
import sys

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, padding, rsa
from fido2 import cbor
from fido2.cose import ES256, RS256
from fido2.webauthn import AttestedCredentialData, AuthenticatorData, CollectedClientData

AAGUID = bytes(16)


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def flags(args, attested):
    value = AuthenticatorData.FLAG.UP
    if "--no-uv" not in args:
        value |= AuthenticatorData.FLAG.UV
    if attested:
        value |= AuthenticatorData.FLAG.AT
    return value


def option(args, name, default=None):
    return args[args.index(name) + 1] if name in args else default


def sign(key, message):
    if isinstance(key, rsa.RSAPrivateKey):
        return key.sign(message, padding.PKCS1v15(), hashes.SHA256())
    return key.sign(message, ec.ECDSA(hashes.SHA256()))


def attestation_certificate():
    """A self-signed P-256 attestation certificate (DER) as packed attestation's x5c, and its key."""
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(x509.oid.NameOID.COMMON_NAME, "Soft authenticator"),
                      x509.NameAttribute(x509.oid.NameOID.ORGANIZATIONAL_UNIT_NAME, "Authenticator Attestation")])
    now = datetime.datetime.now(datetime.timezone.utc)
    certificate = (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
                   .serial_number(x509.random_serial_number()).not_valid_before(now)
                   .not_valid_after(now + datetime.timedelta(days=1)).sign(key, hashes.SHA256()))
    return certificate.public_bytes(serialization.Encoding.DER), key


def client_data(kind, challenge, origin):
    return bytes(CollectedClientData.create(type=kind, challenge=challenge, origin=origin))


def create(state_path, origin, options, args):
    rp_id = option(args, "--rp-id", options["rp"]["id"])
    if option(args, "--alg") == "rs256":
        key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        cose = RS256.from_cryptography_key(key.public_key())
    else:
        key = ec.generate_private_key(ec.SECP256R1())
        cose = ES256.from_cryptography_key(key.public_key())
    credential_id = os.urandom(32)
    counter = int(option(args, "--counter", "0"))
    data = AuthenticatorData.create(
        hashlib.sha256(rp_id.encode()).digest(), flags(args, True), counter,
        bytes(AttestedCredentialData.create(AAGUID, credential_id, cose)))
    client = client_data(option(args, "--type", "webauthn.create"), unb64url(options["challenge"]), origin)
    signed = bytes(data) + hashlib.sha256(client).digest()
    if option(args, "--fmt") == "packed":
        statement = {"alg": cose.ALGORITHM, "sig": sign(key, signed)}
        attestation = cbor.encode({"fmt": "packed", "attStmt": statement, "authData": bytes(data)})
    elif option(args, "--fmt") == "forged":
        statement = {"alg": -7, "sig": sign(ec.generate_private_key(ec.SECP256R1()), signed)}
        attestation = cbor.encode({"fmt": "packed", "attStmt": statement, "authData": bytes(data)})
    elif option(args, "--fmt") == "packed-x5c":
        certificate, attestation_key = attestation_certificate()
        statement = {"alg": -7, "sig": sign(attestation_key, signed), "x5c": [certificate]}
        attestation = cbor.encode({"fmt": "packed", "attStmt": statement, "authData": bytes(data)})
    else:
        attestation = cbor.encode({"fmt": "none", "attStmt": {}, "authData": bytes(data)})
    pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    with open(state_path, "w") as f:
        json.dump({"credentialId": b64url(credential_id), "key": pem.decode(), "counter": counter,
                   "userHandle": options["user"]["id"]}, f)
    return {"id": b64url(credential_id), "rawId": b64url(credential_id), "type": "public-key",
            "response": {"clientDataJSON": b64url(client), "attestationObject": b64url(attestation)},
            "clientExtensionResults": {}}


def get(state_path, origin, options, args):
    with open(state_path) as f:
        state = json.load(f)
    key = serialization.load_pem_private_key(state["key"].encode(), password=None)
    counter = int(option(args, "--counter", str(state["counter"] + 1)))
    rp_id = option(args, "--rp-id", options["rpId"])
    data = bytes(AuthenticatorData.create(hashlib.sha256(rp_id.encode()).digest(), flags(args, False), counter))
    client = client_data(option(args, "--type", "webauthn.get"), unb64url(options["challenge"]), origin)
    signature = sign(key, data + hashlib.sha256(client).digest())
    state["counter"] = counter
    with open(state_path, "w") as f:
        json.dump(state, f)
    return {"id": state["credentialId"], "rawId": state["credentialId"], "type": "public-key",
            "response": {"clientDataJSON": b64url(client), "authenticatorData": b64url(data),
                         "signature": b64url(signature), "userHandle": state["userHandle"]},
            "clientExtensionResults": {}}


def main():
    command, state_path, origin, options = sys.argv[1:5]
    args = sys.argv[5:]
    ceremony = create if command == "create" else get
    print(json.dumps(ceremony(state_path, origin, json.loads(options), args)))


if __name__ == "__main__":
    main()
