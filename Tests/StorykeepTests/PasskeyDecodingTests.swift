import Foundation
import Testing

@testable import StorykeepAccounts
@testable import StorykeepCore
import StorykeepSeed

private func bytes(_ hex: String) -> [UInt8] {
    var out: [UInt8] = []
    var index = hex.startIndex
    while index < hex.endIndex {
        let next = hex.index(index, offsetBy: 2)
        out.append(UInt8(hex[index..<next], radix: 16)!)
        index = next
    }
    return out
}

/// A COSE EC2 key map for ES256 with the coordinates `x` and `y`, and `extra` entries.
private func coseEC2(x: [UInt8], y: [UInt8], curve: UInt8 = 0x01, extra: [UInt8] = [], extraCount: UInt8 = 0) -> [UInt8] {
    [0xA5 + extraCount, 0x01, 0x02, 0x03, 0x26, 0x20, curve, 0x21, 0x58, 0x20] + x + [0x22, 0x58, 0x20] + y + extra
}

/// RFC 6979 A.2.5: the P-256 public key, and the signature of "sample" with SHA-256.
private enum RFC6979 {
    static let x = bytes("60fed4ba255a9d31c961eb74c6356d68c049b8923b61fa6ce669622e60f29fb6")
    static let y = bytes("7903fe1008b8bc99a41ae9e95628bc64f2f1b20c2d7e9f5177a3c294d4462299")
    static let r = bytes("efd48b2aacb6a8fd1140dd9cd45e81d69d2c877b56aaf991c34d0ea84eaf3716")
    static let s = bytes("f7cb1c942d657c41d436c7a1b6e29f65f3e900dbb9aff4064dc4ab2f843acda8")
    /// The signature in DER, as WebAuthn sends ES256 signatures: both numbers have their high bit
    /// set, so each gets a leading zero.
    static let signature: [UInt8] = [0x30, 0x46, 0x02, 0x21, 0x00] + r + [0x02, 0x21, 0x00] + s
}

@Suite("Passkeys: strict CBOR and COSE decoding")
struct PasskeyDecodingTests {
    /// RFC 8949 appendix A, the values WebAuthn can hold.
    @Test func decodesTheRFC8949Examples() throws {
        let examples: [(String, CBOR)] = [
            ("00", .unsigned(0)), ("17", .unsigned(23)), ("1818", .unsigned(24)), ("1903e8", .unsigned(1000)),
            ("1bffffffffffffffff", .unsigned(.max)), ("20", .negative(0)), ("3863", .negative(99)), ("3903e7", .negative(999)),
            ("40", .bytes([])), ("4401020304", .bytes([1, 2, 3, 4])), ("60", .text("")), ("6161", .text("a")),
            ("62c3bc", .text("ü")), ("63e6b0b4", .text("水")), ("80", .array([])),
            ("83010203", .array([.unsigned(1), .unsigned(2), .unsigned(3)])),
            ("8301820203820405", .array([.unsigned(1), .array([.unsigned(2), .unsigned(3)]), .array([.unsigned(4), .unsigned(5)])])),
            ("a0", .map([])), ("a201020304", .map([(.int(1), .unsigned(2)), (.int(3), .unsigned(4))])),
            ("a26161016162820203", .map([(.text("a"), .unsigned(1)), (.text("b"), .array([.unsigned(2), .unsigned(3)]))])),
            ("f4", .bool(false)), ("f5", .bool(true)), ("f6", .null),
        ]
        for (hex, expected) in examples {
            #expect(try CBORDecoder.decode(bytes(hex)) == expected, "\(hex)")
        }
        #expect(try CBORDecoder.decode(bytes("3863")).int == -100)
        #expect(try CBORDecoder.decode(bytes("390100")).int == -257)
    }

    @Test func refusesWhatWebAuthnNeverSends() {
        let refused: [(String, String)] = [
            ("5f42010243030405ff", "indefinite byte string"), ("9fff", "indefinite array"), ("bfff", "indefinite map"),
            ("7f657374726561646d696e67ff", "indefinite text"), ("c11a514b67b0", "tag"), ("f93c00", "half float"),
            ("fb3ff199999999999a", "double"), ("f7", "undefined"), ("f0", "simple value"), ("1c", "reserved additional information"),
            ("a201020103", "duplicate integer key"), ("a2616101616102", "duplicate text key"), ("a1400000", "byte string key"),
            ("a1f600", "null key"), ("0000", "trailing byte"), ("5affffffff", "length past the end"), ("62c328", "invalid UTF-8"),
            ("9bffffffffffffffff", "array count past the end"), ("", "no bytes"), ("19", "argument cut short"), ("8201", "array cut short"),
            ("a10102a0", "trailing map"), ("a1", "map cut short"),
        ]
        for (hex, what) in refused {
            #expect(throws: CBORError.self, "\(what)") { try CBORDecoder.decode(bytes(hex)) }
        }
    }

    @Test func nestingStopsAtTheLimit() throws {
        let deepest = [UInt8](repeating: 0x81, count: CBORDecoder.maxDepth) + [0x00]
        #expect(throws: Never.self) { try CBORDecoder.decode(deepest) }
        #expect(throws: CBORError.self) { try CBORDecoder.decode([0x81] + deepest) }
        #expect(throws: CBORError.self) { try CBORDecoder.decode([UInt8](repeating: 0xA1, count: 40).flatMap { [$0, 0x01] } + [0x00]) }
    }

    @Test func aP256KeyVerifiesTheRFC6979Signature() throws {
        let key = try PasskeyPublicKey(cose: try CBORDecoder.decode(coseEC2(x: RFC6979.x, y: RFC6979.y)))
        #expect(key.algorithm == .es256)
        #expect(key.verify(signature: RFC6979.signature, over: Array("sample".utf8)))
        #expect(!key.verify(signature: RFC6979.signature, over: Array("simple".utf8)))
        var tampered = RFC6979.signature
        tampered[10] ^= 1
        #expect(!key.verify(signature: tampered, over: Array("sample".utf8)))
        #expect(!key.verify(signature: [], over: Array("sample".utf8)))
    }

    @Test func refusesCOSEKeysThatAreNotExactlyES256OrRS256() throws {
        var offCurve = RFC6979.y
        offCurve[31] ^= 1
        let refused: [(CBOR, String)] = [
            (try CBORDecoder.decode(coseEC2(x: RFC6979.x, y: offCurve)), "a point off the curve"),
            (try CBORDecoder.decode(coseEC2(x: RFC6979.x, y: RFC6979.y, curve: 0x02)), "P-384"),
            (try CBORDecoder.decode(coseEC2(x: RFC6979.x, y: RFC6979.y, extra: [0x02, 0x41, 0x00], extraCount: 1)), "an extra label"),
            (try CBORDecoder.decode(bytes("a4010203262001214100")), "a short coordinate without y"),
            (.map([(.int(1), .unsigned(1)), (.int(3), .negative(7))]), "an OKP key"),
            (.array([]), "no map"),
            (.map([(.int(1), .unsigned(3)), (.int(3), .negative(256)), (.int(-1), .bytes([0xC0] + [UInt8](repeating: 0x11, count: 127))), (.int(-2), .bytes([1, 0, 1]))]), "a 1024-bit RSA key"),
            (.map([(.int(1), .unsigned(3)), (.int(3), .negative(6)), (.int(-1), .bytes([0xC0] + [UInt8](repeating: 0x11, count: 255))), (.int(-2), .bytes([1, 0, 1]))]), "RSA with ES256"),
        ]
        for (cose, what) in refused {
            #expect(throws: PasskeyPublicKey.Invalid.self, "\(what)") { try PasskeyPublicKey(cose: cose) }
        }
        let rsa = CBOR.map([(.int(1), .unsigned(3)), (.int(3), .negative(256)), (.int(-1), .bytes([0xC0] + [UInt8](repeating: 0x11, count: 254) + [0x01])), (.int(-2), .bytes([1, 0, 1]))])
        #expect(try PasskeyPublicKey(cose: rsa).algorithm == .rs256)
    }

    @Test func authenticatorDataIsReadStrictly() throws {
        let rpIDHash = [UInt8](repeating: 7, count: 32)
        let plain = try AuthenticatorData(rpIDHash + [0x05, 0, 0, 1, 2])
        #expect(plain.flags.contains(.userPresent) && plain.flags.contains(.userVerified))
        #expect(plain.signCount == 258 && plain.attestedCredential == nil)
        let credentialID: [UInt8] = [9, 9, 9, 9]
        let attested = rpIDHash + [0x45, 0, 0, 0, 0] + [UInt8](repeating: 0, count: 16) + [0, 4] + credentialID + coseEC2(x: RFC6979.x, y: RFC6979.y)
        let data = try AuthenticatorData(attested)
        #expect(data.attestedCredential?.credentialID == credentialID)
        #expect(data.attestedCredential?.publicKeyCOSE == coseEC2(x: RFC6979.x, y: RFC6979.y))

        let refused: [([UInt8], String)] = [
            (Array(rpIDHash.prefix(30)), "too short"), (rpIDHash + [0x05, 0, 0, 0, 0, 0], "a byte after it"),
            (rpIDHash + [0x45, 0, 0, 0, 0], "the attested flag without data"), (attested + [0], "a byte after the key"),
            (rpIDHash + [0x85, 0, 0, 0, 0], "the extensions flag without extensions"), (rpIDHash + [0x85, 0, 0, 0, 0, 0x01], "extensions that are no map"),
            (rpIDHash + [0x45, 0, 0, 0, 0] + [UInt8](repeating: 0, count: 16) + [0, 0], "an empty credential id"),
            (rpIDHash + [0x45, 0, 0, 0, 0] + [UInt8](repeating: 0, count: 16) + [0xFF, 0xFF, 1], "a credential id past the end"),
        ]
        for (bytes, what) in refused {
            #expect(throws: AuthenticatorData.Invalid.self, "\(what)") { try AuthenticatorData(bytes) }
        }
        #expect(try AuthenticatorData(rpIDHash + [0x85, 0, 0, 0, 0, 0xA1, 0x64, 0x63, 0x72, 0x65, 0x64, 0x01]).flags.contains(.extensionData))
    }

    /// Arbitrary bytes, and valid attestation data mutated (bytes flipped, cut, inserted, lengths
    /// changed), through the CBOR decoder, the COSE key, the authenticator data and a whole
    /// registration's checks: each ends with a value or its error, never a crash, and an error
    /// says an offset within the bytes.
    @Test func fuzzedBytesNeverCrashTheDecoders() throws {
        // The seed's reproducible generator: a failure replays.
        var generator = SeedRandom(seed: 21)
        let rpIDHash = [UInt8](repeating: 7, count: 32)
        let authData = rpIDHash + [0x45, 0, 0, 0, 1] + [UInt8](repeating: 0, count: 16) + [0, 4, 9, 9, 9, 9] + coseEC2(x: RFC6979.x, y: RFC6979.y)
        let attestation: [UInt8] = [0xA3, 0x63] + Array("fmt".utf8) + [0x64] + Array("none".utf8) + [0x67] + Array("attStmt".utf8) + [0xA0, 0x68]
            + Array("authData".utf8) + [0x58, UInt8(authData.count)] + authData
        #expect(try CBORDecoder.decode(attestation)["authData"]?.bytes == authData)
        let seeds = [attestation, authData, coseEC2(x: RFC6979.x, y: RFC6979.y)]
        let interesting: [UInt8] = [0x00, 0x18, 0x19, 0x1A, 0x1B, 0x1F, 0x40, 0x58, 0x5F, 0x60, 0x78, 0x7F, 0x80, 0x98, 0x9F, 0xA0, 0xB8, 0xBF, 0xC0, 0xF4, 0xF6, 0xF7, 0xFF]
        let relyingParty = RelyingParty(id: "localhost", name: "Test", origins: ["http://localhost:5173"])
        let clientData = try ClientData(json: Array(#"{"type":"webauthn.create","challenge":"AAAA","origin":"http://localhost:5173"}"#.utf8))
        var decoded = 0
        for round in 0..<30_000 {
            var input: [UInt8]
            if round % 3 == 0 {
                input = (0..<Int.random(in: 0...64, using: &generator)).map { _ in
                    Bool.random(using: &generator) ? UInt8.random(in: 0...255, using: &generator) : interesting.randomElement(using: &generator)!
                }
            } else {
                input = seeds.randomElement(using: &generator)!
                for _ in 0...Int.random(in: 0...3, using: &generator) {
                    guard !input.isEmpty else { break }
                    let at = Int.random(in: 0..<input.count, using: &generator)
                    switch Int.random(in: 0..<4, using: &generator) {
                    case 0: input[at] ^= UInt8(1) << UInt8.random(in: 0...7, using: &generator)
                    case 1: input[at] = interesting.randomElement(using: &generator)!
                    case 2: input.removeSubrange(at...)
                    default: input.insert(UInt8.random(in: 0...255, using: &generator), at: at)
                    }
                }
            }
            do {
                let value = try CBORDecoder.decode(input)
                decoded += 1
                _ = try? PasskeyPublicKey(cose: value)
            } catch {
                #expect((0...input.count).contains(error.offset), "\(input)")
            }
            _ = try? AuthenticatorData(input)
            _ = try? PasskeyCeremony.verifyRegistration(clientData: clientData, attestationObject: input, relyingParty: relyingParty)
        }
        // The mutations keep some inputs valid: the fuzz reaches past the first byte.
        #expect(decoded > 1000)
    }
}
