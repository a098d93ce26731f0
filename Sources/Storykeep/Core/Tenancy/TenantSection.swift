/// A value that is one top-level key of a tenant file (`archive:`, `safety:`), with its default
/// when the file does not have the key: the usual form of a module's settings. The type decodes
/// and validates its own mapping (strictly, see `Decoder.strictContainer`); ``TenantSection``
/// makes it a section of the file, and `file[ArchivePolicy.self]` reads it.
public protocol TenantFileValue: Codable, Sendable, Equatable {
    /// Its key in the tenant file.
    static var tenantFileKey: String { get }
    /// What a file without the key has.
    static var defaultValue: Self { get }
}

/// The section of a tenant file that is the one key `Value.tenantFileKey` holding a `Value`: a
/// module lists `TenantSection<ArchivePolicy>.self` among its ``StorykeepModule/tenantSettings``.
/// A section of several keys, or one that checks keys against each other, is a ``TenantSettings``
/// type of its own.
public struct TenantSection<Value: TenantFileValue>: TenantSettings {
    public static var keys: [String] { [Value.tenantFileKey] }

    public var value: Value

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: AnyCodingKey.self)
        value = try c.decode(Value.self, forKey: AnyCodingKey(stringValue: Value.tenantFileKey), default: Value.defaultValue)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: AnyCodingKey.self)
        try c.encode(value, forKey: AnyCodingKey(stringValue: Value.tenantFileKey))
    }
}

extension TenantFile {
    /// The value of the section ``TenantSection``<`Value`>; as for any section, the file must have
    /// been read with it.
    public subscript<Value: TenantFileValue>(_ type: Value.Type) -> Value {
        get { self[TenantSection<Value>.self].value }
        set { self[TenantSection<Value>.self].value = newValue }
    }
}
