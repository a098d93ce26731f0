import Foundation
import GraphQL
import Postgres
public import StorykeepCore
import StorykeepJournals

/// The case-management export in the schema (Schema/export.graphql): agency admins manage the
/// case management system's clients (``CmsClients``), which get tokens at `oauth/token`
/// (``ClientCredentials``) and pull `export`. Switched on by `export` in the tenant file.
public struct ExportModule: StorykeepModule {
    public init() {}

    public var name: String { "export" }
    public var switchedBy: TenantModule? { .export }
    public var tenantSettings: [any TenantSettings.Type] { [ExportSettings.self] }

    /// `oauth/token` under each tenant's root.
    public static let tokenPath = "oauth/token"

    public var endpoints: [ModuleEndpoint] {
        [
            .clientCredentials(path: Self.tokenPath, issuer: ClientCredentials()),
            .signedFiles(path: MediaLinks.path, source: MediaFiles(), links: MediaLinks()),
        ]
    }
    public var clientAuthentication: (any ClientAuthentication)? { ClientCredentials() }

    /// The documents of a request's entries, their pictures' bytes read in one statement, on the
    /// standby when there is one (`database.readUrl`).
    static let documents = DataLoader<ExportEntry, ExportDocument>.inTransaction("ExportEntry.document", staleReads: true) { entries, context, tx in
        let images = try await feed(context, tx).images(entries.flatMap { $0.media.map(\.id) })
        return entries.map { ExportDocument(html: EntryDocument.html($0, agency: context.tenant.displayName, images: images)) }
    }

    public func register(_ module: inout ModuleRegistry) {
        registerClients(&module)
        ChangeLog.register(&module)
        module.query("export", access: .clients) { _, context in
            ExportRoot(client: try Self.client(context))
        }
        module.field(
            "Export.client",
            .async { source, _, context, _ in
                guard let root = source as? ExportRoot, let context = context as? ResolverContext else { return nil }
                return try await context.transaction { tx in try await CmsClients(tx, now: context.services.now()).find(id: root.client.clientID) }
            })
        module.field(
            "Export.changes",
            .async { _, arguments, context, _ in
                guard let context = context as? ResolverContext else { return nil }
                let first = try Self.first(arguments)
                let after = try context.cursors.position(after: arguments["after"]?.stringValue, of: ExportPosition.self)
                let page = try await context.transaction { tx in
                    let page = try await Self.feed(context, tx).changes(after: after, first: first)
                    try await Self.audit(page.items, context: context, in: tx)
                    return page
                }
                return ExportChanges(items: page.items, cursor: context.cursors.cursor(page.last), hasMore: page.hasMore)
            })
        module.field(
            "Export.youngPeople",
            .async { _, arguments, context, _ in
                guard let context = context as? ResolverContext else { return nil }
                let first = try Self.first(arguments)
                var after: UUID?
                if let text = arguments["after"]?.stringValue {
                    guard let id = UUID(uuidString: text) else {
                        throw GraphQLError.badUserInput(field: "after", "after: give the id of the last young person of the previous page.")
                    }
                    after = id
                }
                return try await context.transaction { tx in try await Self.feed(context, tx).youngPeople(after: after, first: first) }
            })
        module.field(
            "ExportEntry.document",
            .sync { source, _, _, info in
                guard let entry = source as? ExportEntry else { return nil }
                return Self.documents.load(entry, info)
            })
    }

    /// Records what the client received: each entry it got, and each TOMBSTONE, a statement for
    /// each kind whatever the page holds (after the page's reads, so that its transaction takes
    /// its id only now: THE CURSOR in 0018).
    private static func audit(_ items: [ExportChange], context: ResolverContext, in tx: PostgresTransaction) async throws {
        let delivered = items.compactMap { item in item.entry.map { (author: $0.youngPerson.id, entry: $0.id) } }
        try await context.audit(.exportDelivered, entries: delivered, in: tx)
        try await context.audit(.exportWithdrawn, subjects: items.filter { $0.op == .tombstone }.map(\.entryID), in: tx)
    }

    /// The feed as the request's client reads it.
    private static func feed(_ context: ResolverContext, _ tx: PostgresTransaction) throws -> ExportFeed {
        ExportFeed(tx: tx, tenant: context.tenant, client: try client(context), links: context.links, now: context.services.now())
    }

    /// `first`, from 0 to ``ExportFeed/maxFirst``.
    private static func first(_ arguments: GraphQLObject) throws -> Int {
        let first = arguments["first"]?.intValue ?? 100
        guard (0...ExportFeed.maxFirst).contains(first) else {
            throw GraphQLError.badUserInput(field: "first", "first: ask for 0 to \(ExportFeed.maxFirst) at a time.")
        }
        return first
    }

    private func registerClients(_ module: inout ModuleRegistry) {
        let admins = FieldAccess.roles([.agencyAdmin])
        module.query("cmsClients", access: admins) { _, context in
            try await context.transaction { tx in try await CmsClients(tx, now: context.services.now()).all() }
        }
        module.mutation("createCmsClient", access: admins) { arguments, context in
            try await context.transaction { tx in
                let created = try await CmsClients(tx, now: context.services.now()).create(name: arguments["name"]?.stringValue ?? "")
                try await context.audit(.cmsClientCreated, subject: created.client.id, in: tx)
                return created
            }
        }
        module.mutation("rotateCmsClientSecret", access: admins) { arguments, context in
            let id = try arguments.id("id")
            let grace = TimeInterval(context.tenant.file.export.secretGraceHours * 3600)
            return try await context.transaction { tx in
                let rotated = try await CmsClients(tx, now: context.services.now()).rotate(id: id, grace: grace)
                try await context.audit(.cmsClientRotated, subject: id, in: tx)
                return rotated
            }
        }
        module.mutation("revokeCmsClient", access: admins) { arguments, context in
            let id = try arguments.id("id")
            return try await context.transaction { tx in
                let revoked = try await CmsClients(tx, now: context.services.now()).revoke(id: id)
                try await context.audit(.cmsClientRevoked, subject: id, in: tx)
                return revoked
            }
        }
    }

    /// The client of a request for clients (the composition admitted no one else).
    static func client(_ context: ResolverContext) throws -> ServiceClient {
        guard let client = context.client else { throw GraphQLError.forbidden() }
        return client
    }
}

/// `ExportDocument`: an entry's page for filing.
struct ExportDocument: Sendable, GraphQLFieldReadable {
    var html: String

    func value(forField name: String) -> (any Sendable)? {
        switch name {
        case "html": html
        case "contentType": "text/html; charset=utf-8"
        default: nil
        }
    }
}

/// The `Export` object: what the client asking may pull.
struct ExportRoot: GraphQLFieldReadable {
    var client: ServiceClient

    func value(forField name: String) -> (any Sendable)? { nil }
}
