import Foundation
public import GraphQL
import Postgres
public import StorykeepCore

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

    public var endpoints: [ModuleEndpoint] { [.clientCredentials(path: Self.tokenPath, issuer: ClientCredentials())] }
    public var clientAuthentication: (any ClientAuthentication)? { ClientCredentials() }

    public func register(_ module: inout ModuleRegistry) {
        registerClients(&module)
        module.query("export", access: .clients) { _, context in
            ExportRoot(client: try Self.client(context))
        }
        module.field(
            "Export.client",
            .async { source, _, context, _ in
                guard let root = source as? ExportRoot, let context = context as? ResolverContext else { return nil }
                return try await context.transaction { tx in try await CmsClients(tx, now: context.services.now()).find(id: root.client.clientID) }
            })
    }

    private func registerClients(_ module: inout ModuleRegistry) {
        let admins = FieldAccess.roles([.agencyAdmin])
        module.query("cmsClients", access: admins) { _, context in
            try await context.transaction { tx in try await CmsClients(tx, now: context.services.now()).all() }
        }
        module.mutation("createCmsClient", access: admins) { arguments, context in
            try await context.transaction { tx in
                try await CmsClients(tx, now: context.services.now()).create(name: arguments["name"]?.stringValue ?? "")
            }
        }
        module.mutation("rotateCmsClientSecret", access: admins) { arguments, context in
            let id = try arguments.id("id")
            let grace = TimeInterval(context.tenant.file.export.secretGraceHours * 3600)
            return try await context.transaction { tx in try await CmsClients(tx, now: context.services.now()).rotate(id: id, grace: grace) }
        }
        module.mutation("revokeCmsClient", access: admins) { arguments, context in
            let id = try arguments.id("id")
            return try await context.transaction { tx in try await CmsClients(tx, now: context.services.now()).revoke(id: id) }
        }
    }

    /// The client of a request for clients (the composition admitted no one else).
    static func client(_ context: ResolverContext) throws -> ServiceClient {
        guard let client = context.client else { throw GraphQLError.forbidden() }
        return client
    }
}

/// The `Export` object: what the client asking may pull.
struct ExportRoot: GraphQLFieldReadable {
    var client: ServiceClient

    func value(forField name: String) -> (any Sendable)? { nil }
}
