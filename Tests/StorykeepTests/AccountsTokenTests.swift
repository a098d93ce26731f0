import Foundation
import Testing

import Storykeep
@testable import StorykeepAccounts
@testable import StorykeepCore

private func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

/// Decodes unpadded URL-safe base64 (the test's own reading, through Foundation).
private func decodeBase64URL(_ text: String) -> [UInt8]? {
    var standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
    while standard.count % 4 != 0 { standard.append("=") }
    return Data(base64Encoded: standard).map(Array.init)
}

@Suite("Accounts: libcrypto primitives")
struct AccountsCryptoTests {
    @Test func sha256MatchesFIPS180Vectors() {
        #expect(hex(Crypto.sha256("".utf8)) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(hex(Crypto.sha256("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            hex(Crypto.sha256("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    @Test func base64URLIsRFC4648SectionFiveWithoutPadding() {
        #expect(Crypto.base64URL([]) == "")
        #expect(Crypto.base64URL(Array("f".utf8)) == "Zg")
        #expect(Crypto.base64URL(Array("fo".utf8)) == "Zm8")
        #expect(Crypto.base64URL(Array("foo".utf8)) == "Zm9v")
        #expect(Crypto.base64URL(Array("foobar".utf8)) == "Zm9vYmFy")
        #expect(Crypto.base64URL([0xfb, 0xff, 0xbf]) == "-_-_")
    }

    @Test func constantTimeEqualsIsEquality() throws {
        let a = try Crypto.randomBytes(32)
        #expect(Crypto.constantTimeEquals(a, a))
        #expect(Crypto.constantTimeEquals([], []))
        for index in [0, 15, 31] {
            var b = a
            b[index] ^= 0x01
            #expect(!Crypto.constantTimeEquals(a, b), "differs at byte \(index)")
        }
        #expect(!Crypto.constantTimeEquals(a, Array(a.dropLast())))
        #expect(!Crypto.constantTimeEquals(a, a + [0]))
        #expect(!Crypto.constantTimeEquals([], [0]))
    }

    @Test func randomBytesAreFreshAndBalanced() throws {
        let samples = try (0..<1000).map { _ in try Crypto.randomBytes(32) }
        #expect(Set(samples).count == 1000)
        #expect(samples.allSatisfy { $0.count == 32 })
        // 256,000 fair bits: ones number 128,000 with a standard deviation of 253. Eight deviations
        // either way do not happen by chance; a stuck or biased generator lands far outside.
        let ones = samples.joined().reduce(0) { $0 + $1.nonzeroBitCount }
        #expect(abs(ones - 128_000) < 2_000, "\(ones) one bits of 256000")
    }
}

@Suite("Accounts: session tokens")
struct AccountsSessionTokenTests {
    @Test func aTokenIs256RandomBitsInURLSafeBase64() throws {
        let tokens = try (0..<1000).map { _ in try SessionToken.generate() }
        #expect(Set(tokens.map(\.text)).count == 1000)
        for token in tokens {
            #expect(token.text.utf8.count == 43)
            #expect(token.text.wholeMatch(of: /[A-Za-z0-9_-]{43}/) != nil, "\(token.text)")
            #expect(decodeBase64URL(token.text)?.count == 32)
        }
    }

    @Test func onlyItsSHA256IsStored() throws {
        let token = try SessionToken.generate()
        let stored = token.storageHash
        #expect(stored == Crypto.sha256(Array(token.text.utf8)))
        #expect(stored.count == 32)
        #expect(stored != decodeBase64URL(token.text))
        #expect(try SessionToken.generate().storageHash != stored)
        // The same text presented later hashes the same: the lookup key is stable.
        #expect(try #require(SessionToken(presented: token.text)).storageHash == stored)
    }

    @Test func matchesOnlyItsOwnHash() throws {
        let token = try SessionToken.generate()
        #expect(token.matches(storageHash: token.storageHash))
        #expect(!token.matches(storageHash: try SessionToken.generate().storageHash))
        var tampered = token.storageHash
        tampered[31] ^= 0x80
        #expect(!token.matches(storageHash: tampered))
        #expect(!token.matches(storageHash: Array(token.storageHash.prefix(16))))
        #expect(!token.matches(storageHash: []))
    }

    @Test func presentedTextMustLookLikeAToken() throws {
        let text = try SessionToken.generate().text
        #expect(SessionToken(presented: text)?.text == text)
        #expect(SessionToken(presented: Substring(text))?.text == text)
        let short = String(text.dropLast())
        #expect(SessionToken(presented: "") == nil)
        #expect(SessionToken(presented: short) == nil)
        #expect(SessionToken(presented: text + "A") == nil)
        for last in ["=", "+", "/", "é", " ", "\n"] {
            #expect(SessionToken(presented: short + last) == nil, "ends in \(last)")
        }
    }

    @Test func neverPrinted() throws {
        let token = try SessionToken.generate()
        #expect(!"\(token)".contains(token.text))
        #expect(!String(reflecting: token).contains(token.text) || String(reflecting: token) == "\(token)")
    }
}

@Suite("Accounts: activation codes")
struct AccountsActivationCodeTests {
    @Test func twelveSymbolsOfCrockfordBase32InGroupsOfFour() throws {
        let codes = try (0..<1000).map { _ in try ActivationCode.generate() }
        #expect(Set(codes.map(\.canonical)).count == 1000)
        for code in codes {
            #expect(code.canonical.wholeMatch(of: /[0-9A-HJKMNP-TV-Z]{12}/) != nil, "\(code.canonical)")
            #expect(code.displayText.wholeMatch(of: /[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}/) != nil)
            #expect(code.displayText.replacingOccurrences(of: "-", with: "") == code.canonical)
        }
    }

    @Test func everySymbolIsEquallyLikely() throws {
        var counts: [Character: Int] = [:]
        for _ in 0..<2000 {
            for symbol in try ActivationCode.generate().canonical { counts[symbol, default: 0] += 1 }
        }
        // 24,000 symbols over 32: 750 each, standard deviation 27.
        #expect(counts.count == 32)
        #expect(counts.values.allSatisfy { abs($0 - 750) < 200 }, "\(counts)")
    }

    @Test func typingIsForgiving() throws {
        let code = try ActivationCode.generate()
        let typed = [
            code.displayText, code.canonical, code.displayText.lowercased(),
            code.displayText.replacingOccurrences(of: "-", with: " "), " \(code.displayText) ",
        ]
        for text in typed {
            let parsed = try #require(ActivationCode(typed: text), "\(text)")
            #expect(parsed.canonical == code.canonical)
            #expect(parsed.matches(storageHash: code.storageHash))
        }
        #expect(ActivationCode(typed: "o0Ol-1IiL-ABCD")?.canonical == "00011111ABCD")
    }

    @Test func refusesWhatCannotBeACode() {
        for bad in ["", "ABCD-EFGH-JKM", "ABCD-EFGH-JKMNP", "ABCD-EFGH-JKMU", "ABCD-EFGH-JK!N", "ABCDÉFGHJKMN"] {
            #expect(ActivationCode(typed: bad) == nil, "\(bad)")
        }
    }

    @Test func storedAsSHA256OfTheCanonicalSymbols() throws {
        let code = try ActivationCode.generate()
        #expect(code.storageHash == Crypto.sha256(Array(code.canonical.utf8)))
        #expect(!code.matches(storageHash: try ActivationCode.generate().storageHash))
        #expect(!"\(code)".contains(code.canonical))
    }
}
