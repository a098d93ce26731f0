/// A coding key for any string or index, to see every key a mapping holds.
struct AnyCodingKey: CodingKey {
    var stringValue: String
    var intValue: Int?

    init(stringValue: String) {
        self.stringValue = stringValue
    }

    init(intValue: Int) {
        self.stringValue = String(intValue)
        self.intValue = intValue
    }
}

extension Decoder {
    /// A keyed container that first rejects any key `Key` does not name.
    ///
    /// Swift's synthesized decoding ignores unknown keys, which turns a misspelt optional key in a
    /// tenant file (`archiveRetentionDay: 7`) into a silent default. Types that decode tenant files
    /// write `init(from:)` with this container instead: one line, the rest is ordinary decoding.
    ///
    /// `alsoAllowing` names keys read by others from the same mapping (a tenant file's modules'
    /// sections, ``TenantSettings``).
    package func strictContainer<Key: CodingKey & CaseIterable>(
        keyedBy type: Key.Type, alsoAllowing others: [String] = []
    ) throws -> KeyedDecodingContainer<Key> {
        if let unknown = try unknownKeys(Key.self, alsoAllowing: others).first { throw unknown }
        return try container(keyedBy: type)
    }

    /// An error for each key of the mapping that neither `Key` nor `others` names.
    package func unknownKeys<Key: CodingKey & CaseIterable>(_ type: Key.Type, alsoAllowing others: [String] = []) throws -> [DecodingError] {
        let everything = try container(keyedBy: AnyCodingKey.self)
        let known = (Key.allCases.map(\.stringValue) + others).joined(separator: ", ")
        return everything.allKeys.filter { Key(stringValue: $0.stringValue) == nil && !others.contains($0.stringValue) }.map { key in
            DecodingError.dataCorrupted(.init(codingPath: codingPath + [key], debugDescription: "unknown key; expected one of: \(known)"))
        }
    }
}

extension KeyedDecodingContainer {
    /// The value at `key`, or `defaultValue` when the key is absent. A key present with a wrong
    /// type is still an error.
    package func decode<T: Decodable>(_ type: T.Type, forKey key: Key, default defaultValue: T) throws -> T {
        try decodeIfPresent(type, forKey: key) ?? defaultValue
    }

    /// The whole number at `key`, or `defaultValue` when the key is absent; outside `range` it is
    /// an error that expects "`what` from <lowest> to <highest>".
    package func decode(
        _ type: Int.Type, forKey key: Key, default defaultValue: Int, in range: ClosedRange<Int>, _ what: String
    ) throws -> Int {
        let value = try decode(type, forKey: key, default: defaultValue)
        try require(range.contains(value), at: key, "\(what) from \(range.lowerBound) to \(range.upperBound)")
        return value
    }

    /// Throws a decoding error at `key` unless `isValid`.
    package func require(_ isValid: Bool, at key: Key, _ expected: @autoclosure () -> String) throws {
        guard isValid else {
            throw DecodingError.dataCorruptedError(forKey: key, in: self, debugDescription: "expected \(expected())")
        }
    }
}

/// A string enumeration of a tenant file whose decoding error lists the values it accepts, where
/// Swift's default says only that the value was invalid.
public protocol ClosedSetDecodable: RawRepresentable<String>, CaseIterable, Decodable {}

extension ClosedSetDecodable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let raw = try container.decode(String.self)
        guard let value = Self(rawValue: raw) else {
            let allowed = Self.allCases.map(\.rawValue).joined(separator: ", ")
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "expected one of: \(allowed); found \"\(raw)\"")
        }
        self = value
    }
}
