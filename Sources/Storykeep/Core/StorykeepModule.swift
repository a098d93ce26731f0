public import GraphQL

/// A module of the domain: everything it is, declared in one place.
///
/// A module lives in three places with the same name: its SDL `Schema/<name>.graphql`, its folder
/// `Sources/Storykeep/<Name>/` (a target of its own) and its migration. It declares here what the
/// rest of the system needs of it; one composition root (`StorykeepModules.all`) lists the modules,
/// and the server, the command line and the tests all take them from there. How to add one:
/// docs/modules.md.
public protocol StorykeepModule: Sendable {
    /// The module's name: `Schema/<name>.graphql`, `Sources/Storykeep/<Name>/`.
    var name: String { get }
    /// The tenant file's `modules` entry that switches the module on (`tags`), or nil for a module
    /// that is always on (accounts, journals).
    var switchedBy: TenantModule? { get }
    /// The module's SDL files in `Schema/`, without `.graphql`: by default its name.
    var sdl: [String] { get }
    /// The module's sections of the tenant file: their keys, decoding and validation. Every
    /// tenant file is read with the sections of every module, switched on or not.
    var tenantSettings: [any TenantSettings.Type] { get }
    /// Attaches the module's resolvers (its root fields, and fields it adds to other modules'
    /// types) and its handlers of other modules' events.
    func register(_ module: inout ModuleRegistry)
    /// Gives the module's custom scalars their coercion, once the composed schema is built.
    func configure(_ schema: GraphQLSchema)
    /// Work the server runs beside the requests, as long as it runs (the archive's purge).
    func backgroundJobs(_ config: StorykeepConfig) -> [BackgroundJob]
    /// What the module serves over HTTP besides GraphQL, under each tenant's root.
    var endpoints: [ModuleEndpoint] { get }
    /// How a bearer token that is no person's session may still be a client's (the export
    /// module's case-management clients), for tenants that have the module on; nil for none.
    var clientAuthentication: (any ClientAuthentication)? { get }
    /// The settings its ``seed(_:)`` takes from `storykeep seed --set <name>.<key>=<value>`:
    /// key, and what it does (for `--help` and to refuse an unknown key before seeding).
    var seedSettings: [String: String] { get }
    /// Synthetic data of the module for one tenant of `storykeep seed` where it is switched on,
    /// once people and journals are in: how many rows of each kind it wrote, for the summary.
    func seed(_ tenant: ModuleSeedTenant) async throws -> [String: Int]
    /// The module's part of a person's data export (the right of access, `requestMyData`): its
    /// files about the person, read in their own context. Where the module is off for the tenant
    /// it is still asked: what it kept from when it was on is theirs too. By default the files of
    /// ``personDataFiles``.
    func personData(_ subject: PersonDataSubject) async throws -> [PersonDataFile]
    /// The module's JSON files of a person's data export, each one statement.
    var personDataFiles: [PersonDataQuery] { get }
}

extension StorykeepModule {
    public var sdl: [String] { [name] }
    public var tenantSettings: [any TenantSettings.Type] { [] }
    public func configure(_ schema: GraphQLSchema) {}
    public func backgroundJobs(_ config: StorykeepConfig) -> [BackgroundJob] { [] }
    public var endpoints: [ModuleEndpoint] { [] }
    public var clientAuthentication: (any ClientAuthentication)? { nil }
    public var seedSettings: [String: String] { [:] }
    public func seed(_ tenant: ModuleSeedTenant) async throws -> [String: Int] { [:] }
    public func personData(_ subject: PersonDataSubject) async throws -> [PersonDataFile] {
        try await subject.files(personDataFiles)
    }
    public var personDataFiles: [PersonDataQuery] { [] }
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
    /// Only a case-management client's token (``ServiceClient``): a person gets FORBIDDEN. A
    /// client gets FORBIDDEN on every field that is not this.
    case clients
}

/// A root field's resolver: its coerced arguments and the request's ``ResolverContext``.
public typealias RootResolver = @Sendable (_ arguments: GraphQLObject, _ context: ResolverContext) async throws -> (any Sendable)?

/// What a module attaches to the composed schema and to the other modules: resolvers by
/// `Type.field` name, and handlers of domain events.
///
/// Root fields (`Query.*`, `Mutation.*`, `Subscription.*`) are registered with who may call them; the composition
/// wraps each with that check, so a resolver runs only for a caller it admits. Every root field of
/// a composed schema must have a resolver, and every name registered must be a field of the
/// schema: a mismatch fails the composition (at the server's start), not a request.
public struct ModuleRegistry: Sendable {
    package struct Root: Sendable {
        package var access: FieldAccess
        package var ownTransactions: Bool
        package var resolve: RootResolver
    }

    package var roots: [String: Root] = [:]
    package var fields: [String: FieldResolver] = [:]
    /// `Subscription.*` (``subscription(_:access:concerns:_:)``).
    package var subscriptions: [String: LiveSubscriptionField] = [:]
    package var events = EventHandlers()
    /// The arguments, by field coordinate, that may hold U+0000 (``admitNUL(inArgument:of:)``).
    package var admittingNUL: [String: Set<String>] = [:]

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

    /// A field below the root, of this module's types or another's (`Entry.tags`, added by the
    /// tags module). Return a `DataLoader` load for anything read from the database, so that a
    /// list of twenty entries costs one statement, not twenty.
    public mutating func field(_ coordinate: String, _ resolver: FieldResolver) {
        fields[coordinate] = resolver
    }

    /// A field of `Person` that only the person themself reads (their profile, their password
    /// resets): `resolve` runs with the request's context and its viewer when the person is the
    /// viewer; anyone else's, or an anonymous request, reads null.
    public mutating func ownPersonField(
        _ coordinate: String,
        _ resolve: @escaping @Sendable (_ arguments: GraphQLObject, _ context: ResolverContext, _ viewer: Viewer) async throws
            -> (any Sendable)?
    ) {
        field(
            coordinate,
            .async { source, arguments, context, _ in
                guard let context = context as? ResolverContext, let viewer = context.viewer,
                    (source as? GraphQLValue)?["id"]?.stringValue == viewer.personID.lowercased
                else { return nil }
                return try await resolve(arguments, context, viewer)
            })
    }

    /// Runs `handler` whenever `Event` is published by a request of a tenant that has this
    /// module on, in the same transaction (see ``DomainEvent``).
    public mutating func on<Event: DomainEvent>(
        _ type: Event.Type, _ handler: @escaping @Sendable (Event, EventContext) async throws -> Void
    ) {
        events.add(type, handler)
    }

    /// Lets the string argument `argument` of the field `coordinate` (`Mutation.raiseSafetyAlert`)
    /// hold U+0000, which the composition refuses in every other argument (BAD_USER_INPUT, see
    /// `InputText`): for the rare input that must never be refused, a child's call for help. The
    /// resolver takes the NULs out itself before the text reaches PostgreSQL, which cannot hold
    /// them (its client refuses such text).
    public mutating func admitNUL(inArgument argument: String, of coordinate: String) {
        admittingNUL[coordinate, default: []].insert(argument)
    }

    /// Adds `other`'s resolvers (a module's, named `module`); a coordinate two modules claim is a
    /// composition error.
    package mutating func merge(_ other: ModuleRegistry, from module: String) throws {
        let claimed = Set(roots.keys).union(fields.keys).union(subscriptions.keys)
        if let clash = claimed.intersection(Set(other.roots.keys).union(other.fields.keys).union(other.subscriptions.keys)).first {
            throw ModuleCompositionError(description: "module \(module) registers \(clash), which another module already resolves")
        }
        roots.merge(other.roots) { $1 }
        fields.merge(other.fields) { $1 }
        subscriptions.merge(other.subscriptions) { $1 }
        events.append(other.events)
        admittingNUL.merge(other.admittingNUL) { $0.union($1) }
    }
}

/// Modules that do not fit together: their resolvers claim the same field.
public struct ModuleCompositionError: Error, CustomStringConvertible {
    public var description: String
}
