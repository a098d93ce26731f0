import GraphQL

/// A position in one of the lists the API pages through (`entries` and `search`, `archive`,
/// `people`): what a cursor carries. Each list defines its own, next to its query.
public protocol CursorPosition: Sendable {
    /// The list's name inside its cursors: a cursor of one list is refused by every other.
    static var list: String { get }
    /// The position's values as text, none containing `|`.
    var fields: [String] { get }
    /// The position of `fields`, or nil when they are not valid values (a date or moment outside
    /// PostgreSQL's range, an id that is no UUID, too few or too many of them).
    init?(fields: [Substring])
}

/// The secret a tenant's cursors are signed with: `tenants.cursor_key`
/// (Migrations/0007_tenancy_cursor_keys.sql), loaded with the tenant. Never printed.
public struct CursorKey: Sendable, Equatable, CustomStringConvertible {
    let bytes: [UInt8]
    /// The key made ready to sign.
    let signer: HMACKey

    public init(bytes: [UInt8]) {
        self.bytes = bytes
        signer = HMACKey(bytes)
    }

    public static func == (a: CursorKey, b: CursorKey) -> Bool { a.bytes == b.bytes }

    /// A fresh random key, for a tenant made in memory rather than read from the database (tests,
    /// tools): its cursors hold while that value lives.
    public static func random() -> CursorKey {
        var generator = SystemRandomNumberGenerator()
        return CursorKey(bytes: (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }

    public var description: String { "CursorKey(\(bytes.count) bytes)" }

    /// A key of the tenant's for another `purpose` (the export's media links), derived from this
    /// one with HMAC-SHA-256, so that one kind of signature is never another's.
    package func derived(for purpose: String) -> [UInt8] {
        signer.mac(Array(purpose.utf8))
    }
}

/// The one codec of every list's cursors: a position made opaque and unforgeable.
///
/// A cursor is `<list>|<field>|<field>…` in UTF-8, then the first 16 bytes (128 bits) of its
/// HMAC-SHA-256 under the tenant's ``CursorKey``, all in base64url. Clients treat it as a token;
/// one they changed, made up, took from another list or another tenant, or kept across a key
/// rotation is refused with BAD_USER_INPUT on `after`, before any statement runs.
/// The position's values are checked again after the signature (``CursorPosition/init(fields:)``),
/// so that no cursor, even one signed with a leaked key, reaches PostgreSQL with a value it cannot
/// hold.
public struct Cursors: Sendable {
    /// Bytes of the MAC a cursor carries.
    static let macLength = 16
    /// The longest cursor read; longer text is refused without decoding it.
    static let maxLength = 256

    private let key: CursorKey

    public init(key: CursorKey) {
        self.key = key
    }

    /// The cursors of `tenant`'s lists.
    public init(tenant: Tenant) {
        self.init(key: tenant.cursorKey)
    }

    /// The cursor of `position`.
    public func cursor(_ position: some CursorPosition) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(96)
        bytes += type(of: position).list.utf8
        for field in position.fields {
            bytes.append(UInt8(ascii: "|"))
            bytes += field.utf8
        }
        bytes += mac(bytes)
        return Crypto.base64URL(bytes)
    }

    /// The position the cursor `after` holds, nil for none; BAD_USER_INPUT on `after` when it
    /// is not a cursor this tenant gave for the list of `Position`.
    public func position<Position: CursorPosition>(after cursor: String?, of _: Position.Type) throws -> Position? {
        guard let cursor else { return nil }
        let refusal = GraphQLError.badUserInput(
            field: "after", "after: that is not a cursor of this list. Ask for the first page again.")
        guard cursor.utf8.count <= Self.maxLength, let bytes = Crypto.bytes(base64URL: cursor), bytes.count > Self.macLength
        else { throw refusal }
        let payload = Array(bytes.dropLast(Self.macLength))
        guard Crypto.constantTimeEquals(Array(bytes.suffix(Self.macLength)), Array(mac(payload))),
            let text = String(validating: payload, as: UTF8.self)
        else { throw refusal }
        let parts = text.split(separator: "|", omittingEmptySubsequences: false)
        guard parts.first == Substring(Position.list), let position = Position(fields: Array(parts.dropFirst())) else {
            throw refusal
        }
        return position
    }

    private func mac(_ payload: [UInt8]) -> ArraySlice<UInt8> {
        key.signer.mac(payload).prefix(Self.macLength)
    }
}
