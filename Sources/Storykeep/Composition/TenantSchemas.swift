public import Foundation
public import GraphQL
import Logging
public import StorykeepCore
import Synchronization

/// A tenant's GraphQL schema, composed and ready to serve.
public struct ComposedSchema: Sendable {
    /// The modules it is made of, in composition order.
    public let modules: [String]
    /// Parses, validates and caches documents, and executes them.
    public let service: GraphQLService
    /// Mutation fields that open their own transactions (see ``ModuleRegistry/mutation(_:access:ownTransactions:_:)``).
    public let ownTransactionFields: Set<String>
    /// The event handlers of its modules.
    public let events: EventBus
    /// The arguments that may hold U+0000, as schema coordinates (`Mutation.raiseSafetyAlert(message:)`):
    /// those a module admitted (``ModuleRegistry/admitNUL(inArgument:of:)``); every other string
    /// argument refuses it.
    public let argumentsAdmittingNUL: Set<String>
    /// The fields of `Subscription`, by name, as their modules registered them.
    public let subscriptions: [String: LiveSubscriptionField]
    /// How its modules recognise a client's token (``StorykeepModule/clientAuthentication``), if
    /// one of them has clients.
    public let clientAuthentication: (any ClientAuthentication)?

    public var schema: GraphQLSchema { service.schema }
}

/// Why a schema could not be composed: a module's SDL is missing or invalid, or its resolvers do
/// not match its SDL. A mistake of the code or the checkout, not of a request.
public struct SchemaCompositionError: Error, CustomStringConvertible {
    public var description: String
}

/// The schemas of the tenants: one per distinct set of enabled modules, composed on first use and
/// kept (not rebuilt per request), each with its own document cache.
///
/// A schema is the core's SDL (`Schema/core.graphql`: the root types, shared scalars) and its
/// modules', `Schema/<module>.graphql` in ``StorykeepModules/all``'s order, with each module's
/// resolvers attached by `Type.field` name. Every root field is wrapped with the access check its
/// module registered (``FieldAccess``), every resolver a module registered with the mapping of its
/// errors (``ResolverContext/apiError(_:at:)``), and every field that takes arguments with the
/// check of its input's text (``InputText``), which comes first: input no field could accept is
/// refused whoever sends it (but in the arguments a module admitted NULs in, whose resolver takes
/// them out). Events published in a tenant's requests
/// reach the handlers of that tenant's modules only.
public final class TenantSchemas: Sendable {
    /// The most tokens a request's document may have: a bound on the work an anonymous
    /// document can cause before validation (GraphiQL's introspection query has about 600).
    public static let maxTokens = 5_000

    /// The engine's abuse limits with a cost limit for data (GraphQL's `MaxCostRule`): a page
    /// given by a variable counts as the largest, 100, and the limit lets an app's largest real
    /// queries through (a first page of 100 entries with their tags, files and cursors costs about
    /// 10,400; a case-management client's page of 100 export changes with every field of the
    /// entry, its files, tags, shares and document, about 16,100) but not 10,000 entries in one
    /// request (100 aliases of `entries(first: 100)` cost 20,000 or more, whatever they select).
    public static let validationLimits = ValidationLimits(maxCost: 18_000, variableListSize: 100)

    /// The folder of the `.graphql` files.
    public let directory: URL
    public let modules: [any StorykeepModule]
    private let documentCacheSize: Int
    private let composed = Mutex<[[String]: ComposedSchema]>([:])

    public init(directory: URL, modules: [any StorykeepModule] = StorykeepModules.all, documentCacheSize: Int = 512) {
        self.directory = directory
        self.modules = modules
        self.documentCacheSize = max(1, documentCacheSize)
    }

    /// The schema of `tenant`'s file: the modules always on, and those its `modules` enable.
    public func schema(for tenant: TenantFile) throws -> ComposedSchema {
        let names = modules.filter { $0.switchedBy.map(tenant.enables) ?? true }.map(\.name)
        if let schema = composed.withLock({ $0[names] }) { return schema }
        // Composed outside the lock; two first requests at once may both compose, one is kept.
        let schema = try compose(names)
        return composed.withLock { cache in
            if let existing = cache[names] { return existing }
            cache[names] = schema
            return schema
        }
    }

    /// Composes the schema of every module, so that a module whose SDL or resolvers are wrong
    /// fails the server's start rather than a tenant's first request.
    public func checkAllModules() throws {
        _ = try compose(modules.map(\.name))
    }

    /// Builds the schema of the named modules.
    func compose(_ names: [String]) throws -> ComposedSchema {
        let chosen = names.compactMap { name in modules.first { $0.name == name } }
        var sources = [try sdl(CoreSchema.sdl, of: "the core")]
        var registry = ModuleRegistry()
        for module in chosen {
            for file in module.sdl { sources.append(try sdl(file, of: "module \(module.name)")) }
            var own = ModuleRegistry()
            module.register(&own)
            do {
                try registry.merge(own, from: module.name)
            } catch {
                throw SchemaCompositionError(description: "\(error)")
            }
        }
        let schema: GraphQLSchema
        do {
            schema = try buildSchema(sources)
        } catch {
            throw SchemaCompositionError(description: "the SDL of \(names.joined(separator: ", ")) does not build: \(error)")
        }
        let problems = validateSchema(schema)
        guard problems.isEmpty else {
            throw SchemaCompositionError(
                description: "the SDL of \(names.joined(separator: ", ")) is invalid: "
                    + problems.map(\.message).joined(separator: "; "))
        }
        CoreSchema.configure(schema)
        for module in chosen { module.configure(schema) }
        try attach(registry, to: schema)
        let own = Set(registry.roots.filter { $0.value.ownTransactions }.keys.map { String($0.dropFirst("Mutation.".count)) })
        return ComposedSchema(
            modules: names,
            service: GraphQLService(
                schema: schema, cacheCapacity: documentCacheSize, parseOptions: ParseOptions(maxTokens: Self.maxTokens),
                validationOptions: ValidationOptions(limits: Self.validationLimits)),
            ownTransactionFields: own, events: EventBus(registry.events),
            argumentsAdmittingNUL: Set(registry.admittingNUL.flatMap { field, arguments in arguments.map { "\(field)(\($0):)" } }),
            subscriptions: Dictionary(uniqueKeysWithValues: registry.subscriptions.map { (String($0.key.dropFirst("Subscription.".count)), $0.value) }),
            clientAuthentication: chosen.lazy.compactMap(\.clientAuthentication).first)
    }

    /// The SDL file `Schema/<name>.graphql`.
    private func sdl(_ name: String, of owner: String) throws -> Source {
        let file = directory.appendingPathComponent(name + ".graphql")
        guard let text = try? String(contentsOf: file, encoding: .utf8) else {
            throw SchemaCompositionError(description: "no SDL for \(owner) at \(file.path)")
        }
        return Source(text, name: file.lastPathComponent)
    }

    private func attach(_ registry: ModuleRegistry, to schema: GraphQLSchema) throws {
        try Self.checkAdmittedNUL(registry, in: schema)
        var unused = Set(registry.roots.keys).union(registry.fields.keys).union(registry.subscriptions.keys)
        for root in [schema.queryType, schema.mutationType].compactMap({ $0 }) {
            for field in root.fields {
                let coordinate = "\(root.name).\(field.name)"
                guard let registered = registry.roots[coordinate] else {
                    throw SchemaCompositionError(description: "no resolver for \(coordinate)")
                }
                unused.remove(coordinate)
                field.resolve = Self.guarded(registered, coordinate, admittingNUL: registry.admittingNUL[coordinate] ?? [])
            }
        }
        for field in schema.subscriptionType?.fields ?? FieldMap() {
            let coordinate = "Subscription.\(field.name)"
            guard let registered = registry.subscriptions[coordinate] else {
                throw SchemaCompositionError(description: "no subscription for \(coordinate)")
            }
            unused.remove(coordinate)
            field.subscribe = Self.guarded(registered)
        }
        for (coordinate, resolver) in registry.fields {
            let parts = coordinate.split(separator: ".", maxSplits: 1).map(String.init)
            guard parts.count == 2, let field = schema.type(named: parts[0])?.fields?[parts[1]] else { continue }
            unused.remove(coordinate)
            let admitted = registry.admittingNUL[coordinate] ?? []
            field.resolve = Self.mappingErrors(
                field.arguments.isEmpty ? resolver : Self.checkingInput(resolver, admittingNUL: admitted), coordinate)
        }
        guard unused.isEmpty else {
            throw SchemaCompositionError(description: "resolvers for fields the schema lacks: \(unused.sorted().joined(separator: ", "))")
        }
    }

    /// Refuses an admission of NULs (``ModuleRegistry/admitNUL(inArgument:of:)``) that names no
    /// `String` argument of the schema: a misspelt name would otherwise admit nothing, silently.
    private static func checkAdmittedNUL(_ registry: ModuleRegistry, in schema: GraphQLSchema) throws {
        for (coordinate, arguments) in registry.admittingNUL {
            let parts = coordinate.split(separator: ".", maxSplits: 1).map(String.init)
            let field = parts.count == 2 ? schema.type(named: parts[0])?.fields?[parts[1]] : nil
            for name in arguments {
                guard field?.arguments[name]?.type.nullableType.name == "String" else {
                    throw SchemaCompositionError(description: "NULs admitted in \(coordinate)(\(name):), which is no String argument")
                }
            }
        }
    }

    /// A resolver below the root behind the check of its arguments' text.
    private static func checkingInput(_ resolver: FieldResolver, admittingNUL admitted: Set<String>) -> FieldResolver {
        switch resolver {
        case .sync(let resolve):
            .sync { source, arguments, context, info in
                try InputText.check(arguments, admittingNUL: admitted)
                return try resolve(source, arguments, context, info)
            }
        case .async(let resolve):
            .async { source, arguments, context, info in
                try InputText.check(arguments, admittingNUL: admitted)
                return try await resolve(source, arguments, context, info)
            }
        }
    }

    /// The root resolver behind the check of its arguments' text, its access check and, for a
    /// mutation, the request's rate limits (``RequestLimits/takeMutation(personID:)``).
    private static func guarded(_ root: ModuleRegistry.Root, _ coordinate: String, admittingNUL admitted: Set<String>) -> FieldResolver {
        let (access, resolve) = (root.access, root.resolve)
        let isMutation = coordinate.hasPrefix("Mutation.")
        return .async { _, arguments, context, _ in
            guard let context = context as? ResolverContext else {
                throw GraphQLError(message: "Internal error: no request context.")
            }
            try InputText.check(arguments, admittingNUL: admitted)
            // A client's token reaches the fields for clients and nothing else.
            if context.client != nil, access != .clients { throw GraphQLError.forbidden() }
            switch access {
            case .clients:
                guard context.client != nil else {
                    _ = try context.requireViewer()
                    throw GraphQLError.forbidden()
                }
            case .anyone:
                break
            case .authenticated:
                _ = try context.requireViewer()
            case .roles(let roles):
                guard roles.contains(try context.requireViewer().role) else { throw GraphQLError.forbidden() }
            }
            if isMutation { try RequestLimits.current?.takeMutation(personID: context.viewer?.personID) }
            do {
                return try await resolve(arguments, context)
            } catch {
                throw context.apiError(error, at: coordinate)
            }
        }
    }

    /// A subscription's source stream behind the check of its arguments' text and its access
    /// check: the tenant's live events it follows that may concern the viewer. The field's
    /// value for each is read by the runner of the subscription (``TenantGraphQL/subscribe(_:tenant:token:links:)``).
    private static func guarded(_ subscription: LiveSubscriptionField) -> SubscriptionResolver {
        { _, arguments, context, _ in
            guard let context = context as? ResolverContext else {
                throw GraphQLError(message: "Internal error: no request context.")
            }
            try InputText.check(arguments, admittingNUL: [])
            let viewer = try context.requireViewer()
            if case .roles(let roles) = subscription.access, !roles.contains(viewer.role) { throw GraphQLError.forbidden() }
            let concerns = subscription.concerns
            return context.services.live.stream(tenantID: context.tenant.id, kinds: subscription.kinds) { concerns($0, viewer) }
        }
    }

    /// A module's resolver of a field below the root, its errors mapped as the root fields' are.
    private static func mappingErrors(_ resolver: FieldResolver, _ coordinate: String) -> FieldResolver {
        switch resolver {
        case .sync(let resolve):
            return .sync { source, arguments, context, info in
                do {
                    return try resolve(source, arguments, context, info)
                } catch {
                    guard let context = context as? ResolverContext else { throw error }
                    throw context.apiError(error, at: coordinate)
                }
            }
        case .async(let resolve):
            return .async { source, arguments, context, info in
                do {
                    return try await resolve(source, arguments, context, info)
                } catch {
                    guard let context = context as? ResolverContext else { throw error }
                    throw context.apiError(error, at: coordinate)
                }
            }
        }
    }
}
