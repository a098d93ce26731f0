import StorykeepCore

/// A one-time code a member of staff hands to a person (on paper, read out on the phone) so they can
/// set their password: when the person is added, until they have set one, and after a password
/// reset that two members of staff agreed to (``PasswordResets``).
///
/// Twelve characters of Crockford's base32, shown in groups of four (`7KQ2-XM4D-9TVA`): 60 random
/// bits, no vowels U or I/L/O to misread, and typing is forgiving: case, spaces and hyphens do not
/// matter, `O` reads as `0`, `I` and `L` as `1`. Sixty bits are plenty for a code that is used
/// once, expires, and is tried at a throttled rate; stored as SHA-256 (``storageHash``), the code
/// is out of reach of anyone reading the table before it expires.
public struct ActivationCode: Sendable, CustomStringConvertible {
    /// Crockford's base32: 32 symbols, so each random byte's low five bits pick one uniformly.
    static let alphabet = Array("0123456789ABCDEFGHJKMNPQRSTVWXYZ".utf8)
    /// Symbols in a code.
    public static let length = 12
    /// Symbols between hyphens in ``displayText``.
    static let groupSize = 4

    /// The code's symbols, upper case, without separators: what is hashed.
    public let canonical: String

    /// A new code from `RAND_bytes`.
    public static func generate() throws -> ActivationCode {
        let symbols = try Crypto.randomBytes(length).map { alphabet[Int($0 & 31)] }
        return ActivationCode(canonical: String(decoding: symbols, as: UTF8.self))
    }

    /// The code a person typed, or nil when it cannot be one (wrong length, a symbol outside the
    /// alphabet once case, separators and look-alikes are forgiven).
    public init?(typed text: some StringProtocol) {
        var symbols: [UInt8] = []
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "-"), UInt8(ascii: " "), UInt8(ascii: "\t"): continue
            default: break
            }
            var symbol = byte
            if (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(symbol) { symbol -= 32 }
            switch symbol {
            case UInt8(ascii: "O"): symbol = UInt8(ascii: "0")
            case UInt8(ascii: "I"), UInt8(ascii: "L"): symbol = UInt8(ascii: "1")
            default: break
            }
            guard Self.alphabet.contains(symbol), symbols.count < Self.length else { return nil }
            symbols.append(symbol)
        }
        guard symbols.count == Self.length else { return nil }
        self.init(canonical: String(decoding: symbols, as: UTF8.self))
    }

    private init(canonical: String) {
        self.canonical = canonical
    }

    /// The code as shown to the admin: groups of four joined by hyphens.
    public var displayText: String {
        var text = ""
        for (index, symbol) in canonical.enumerated() {
            if index > 0 && index % Self.groupSize == 0 { text.append("-") }
            text.append(symbol)
        }
        return text
    }

    /// What `activation_codes.code_hash` stores and is searched by: SHA-256 of ``canonical``.
    public var storageHash: [UInt8] { Crypto.sha256(canonical.utf8) }

    /// Whether `storageHash` is this code's, compared in constant time.
    public func matches(storageHash stored: [UInt8]) -> Bool {
        Crypto.constantTimeEquals(storageHash, stored)
    }

    public var description: String { "ActivationCode(redacted)" }
}
