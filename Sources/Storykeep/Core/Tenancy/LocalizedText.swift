/// A text of a tenant file in the agency's languages: a plain string, which is the English text,
/// or a mapping from language codes to texts, English (`en`) among them, as the fallback:
///
/// ```yaml
/// checkInQuestion: How are you feeling today?
/// checkInQuestion: { en: How are you feeling today?, cy: Sut wyt ti'n teimlo heddiw? }
/// ```
///
/// Decoded once, with the file, and checked there: each code must be one of the file's
/// `languages` (``TenantFile/languages``) and `en` must be there. A request shows it in the
/// language ``RequestLanguage`` chose, falling back to English.
public struct LocalizedText: Codable, Sendable, Hashable, CustomStringConvertible {
    /// The language every text has, shown when a person's has none.
    public static let fallback = "en"

    /// The languages of the tenant file being decoded: its `languages`, set by ``TenantFile``
    /// around the decoding of its sections; nil outside a tenant file (a code is then only checked
    /// for its form).
    @TaskLocal static var fileLanguages: [String]?

    /// The texts by language code; `en` is always there.
    public private(set) var texts: [String: String]

    /// An English text alone.
    public init(_ english: String) {
        texts = [Self.fallback: english]
    }

    /// The English text, and any translations (`["cy": "..."]`).
    public init(english: String, translations: [String: String] = [:]) {
        texts = translations.merging([Self.fallback: english]) { $1 }
    }

    /// The English text: what a text means, and how the server knows it (a mood's name).
    public var english: String { texts[Self.fallback] ?? "" }

    /// The text in `language`, else in English.
    public func text(in language: String) -> String {
        texts[language] ?? english
    }

    /// Every language's text, English first, for the checks of each (non-empty, its length).
    public var all: [String] {
        [english] + texts.filter { $0.key != Self.fallback }.sorted { $0.key < $1.key }.map(\.value)
    }

    public var description: String { english }

    /// A language code: two or three lowercase letters (ISO 639-1, or 639-3 where there is no
    /// two-letter code).
    public static func isLanguageCode(_ code: String) -> Bool {
        (2...3).contains(code.utf8.count) && code.utf8.allSatisfy { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) }
    }

    public init(from decoder: any Decoder) throws {
        if let english = try? decoder.singleValueContainer().decode(String.self) {
            texts = [Self.fallback: english]
            return
        }
        let c = try decoder.container(keyedBy: AnyCodingKey.self)
        var texts: [String: String] = [:]
        for key in c.allKeys {
            let allowed = Self.fileLanguages
            guard Self.isLanguageCode(key.stringValue), allowed?.contains(key.stringValue) ?? true else {
                throw DecodingError.dataCorruptedError(
                    forKey: key, in: c,
                    debugDescription: allowed.map { "expected one of the agency's languages (\($0.joined(separator: ", ")))" }
                        ?? "expected a language code of two or three lowercase letters")
            }
            texts[key.stringValue] = try c.decode(String.self, forKey: key)
        }
        guard texts[Self.fallback] != nil else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: decoder.codingPath,
                    debugDescription: "expected a text, or texts by language with English (en) among them, the fallback"))
        }
        self.texts = texts
    }

    /// A plain string when there is English alone (as the file may say it), else the mapping.
    public func encode(to encoder: any Encoder) throws {
        if texts.count == 1 {
            var c = encoder.singleValueContainer()
            try c.encode(english)
        } else {
            var c = encoder.container(keyedBy: AnyCodingKey.self)
            for (language, text) in texts.sorted(by: { $0.key < $1.key }) {
                try c.encode(text, forKey: AnyCodingKey(stringValue: language))
            }
        }
    }
}

extension LocalizedText: ExpressibleByStringLiteral {
    /// An English text alone.
    public init(stringLiteral english: String) {
        self.init(english)
    }
}
