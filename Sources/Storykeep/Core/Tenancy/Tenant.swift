public import Foundation

/// A tenant as the database knows it: the agency's file, its id, and whether it is served.
public struct Tenant: Sendable, Equatable {
    /// `tenants.tenant_id`: what every row of this agency's data carries, and what a transaction
    /// sets as `storykeep.tenant_id`.
    public var id: UUID
    /// `tenants.enabled`: a disabled tenant is not served (its data stays).
    public var enabled: Bool
    /// `tenants.config`: the tenant file as last applied, defaults filled in.
    public var file: TenantFile
    /// `tenants.cursor_key`: signs the cursors of the tenant's lists (``Cursors``).
    public var cursorKey: CursorKey
    /// `tenants.trusted_documents`: the operations registered for its apps.
    public var trustedDocuments: TrustedDocuments

    /// A tenant; without `cursorKey` (one made in memory, not read from the database) it gets a
    /// random key of its own.
    public init(
        id: UUID, enabled: Bool, file: TenantFile, cursorKey: CursorKey = .random(), trustedDocuments: TrustedDocuments = TrustedDocuments()
    ) {
        self.id = id
        self.enabled = enabled
        self.file = file
        self.cursorKey = cursorKey
        self.trustedDocuments = trustedDocuments
    }

    public var slug: String { file.slug }
    public var displayName: String { file.displayName }
    public var hosts: [String] { file.hosts }
}
