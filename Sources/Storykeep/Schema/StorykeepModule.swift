public import GraphQL

/// A module of the domain as the GraphQL schema sees it: its SDL in `Schema/<name>.graphql`, its
/// resolvers in `Sources/Storykeep/<Module>/`, its tables in a migration. A tenant's schema is
/// made of the modules its tenant file enables (``TenantSchemas``).
public protocol StorykeepModule: Sendable {
    /// The module's name: its SDL is `Schema/<name>.graphql`.
    var name: String { get }
    /// The tenant file's `modules` entry that switches the module on, or nil for a module that is
    /// always on (accounts, journals).
    var switchedBy: TenantModule? { get }
    /// Attaches the module's resolvers, by `Type.field` name.
    func register(_ resolvers: inout ResolverRegistry)
    /// Gives the module's custom scalars their coercion, once the composed schema is built.
    func configure(_ schema: GraphQLSchema)
}

extension StorykeepModule {
    public func configure(_ schema: GraphQLSchema) {}
}

/// Every module the server knows, in the order their SDL is composed: the first defines the root
/// types, the others extend them. Adding a module adds one line here.
public enum StorykeepModules {
    public static let all: [any StorykeepModule] = [
        AccountsModule(),
        JournalsModule(),
        ProfileModule(),
        TagsModule(),
        ArchiveModule(),
    ]
}

/// Who may call a root field. Fields below the root are reached only through one, so the check at
/// the root covers them.
public enum FieldAccess: Sendable, Equatable {
    /// Anyone, before logging in too (`login`, `activateAccount`, `me`).
    case anyone
    /// Any person logged in.
    case authenticated
    /// Only people with one of these roles; others get FORBIDDEN.
    case roles(Set<PersonRole>)
}

/// A root field's resolver: its coerced arguments and the request's ``ResolverContext``.
public typealias RootResolver = @Sendable (_ arguments: GraphQLObject, _ context: ResolverContext) async throws -> (any Sendable)?

/// The resolvers a module attaches, by `Type.field` name.
///
/// Root fields (`Query.*`, `Mutation.*`) are registered with who may call them; the composition
/// (``TenantSchemas``) wraps each with that check, so a resolver runs only for a caller it admits.
/// Every root field of a composed schema must have a resolver, and every name registered must be
/// a field of the schema: a mismatch fails the composition, not a request.
public struct ResolverRegistry: Sendable {
    struct Root: Sendable {
        var access: FieldAccess
        var ownTransactions: Bool
        var resolve: RootResolver
    }

    var roots: [String: Root] = [:]
    var fields: [String: FieldResolver] = [:]

    public init() {}

    /// `Query.<name>`.
    public mutating func query(_ name: String, access: FieldAccess, _ resolve: @escaping RootResolver) {
        roots["Query." + name] = Root(access: access, ownTransactions: false, resolve: resolve)
    }

    /// `Mutation.<name>`.
    ///
    /// A mutation with `ownTransactions` runs outside the request's transaction and opens short
    /// ones itself (``ResolverContext/transaction(_:_:)``), because it does slow work in between
    /// that must not hold a database connection (Argon2: `login`, `activateAccount`,
    /// `changePassword`). A request that selects such a field runs every root field that way.
    public mutating func mutation(
        _ name: String, access: FieldAccess, ownTransactions: Bool = false, _ resolve: @escaping RootResolver
    ) {
        roots["Mutation." + name] = Root(access: access, ownTransactions: ownTransactions, resolve: resolve)
    }

    /// A field below the root, e.g. `Person.mustAcceptTerms`.
    public mutating func field(_ coordinate: String, _ resolver: FieldResolver) {
        fields[coordinate] = resolver
    }
}
