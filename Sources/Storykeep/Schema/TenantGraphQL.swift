import Foundation
public import GraphQL
public import Logging
public import Postgres

/// Runs a tenant's GraphQL requests: finds the tenant's schema, authenticates the bearer token,
/// and executes in the database context of whoever is asking.
///
/// - A document that does not parse or validate is answered without touching the database.
/// - Without a token, the request runs as nobody, without a transaction: anonymous requests can
///   reach only `login`, `activateAccount`, `me` and introspection, and cost no connection.
/// - With a token, the request runs in one transaction: AUTHENTICATION finds the session by the
///   token's SHA-256 (tenant-bound, live, person not disabled) and slides its expiry; then the
///   transaction switches to the person (``AccountContext/person(tenantID:personID:role:)``) and
///   every resolver uses it. A response with errors is rolled back: a failed mutation changes
///   nothing.
/// - A mutation selecting a field registered with `ownTransactions` (those that run Argon2) runs
///   without the request transaction: authentication commits first, and each resolver opens short
///   transactions around its slow work.
public struct TenantGraphQL: Sendable {
    public let schemas: TenantSchemas
    public let services: DomainServices

    public init(schemas: TenantSchemas, services: DomainServices) {
        self.schemas = schemas
        self.services = services
    }

    /// As the server's configuration says: the SDL in `graphql.schemaDirectory` (relative to
    /// `root`, the checkout, unless absolute), Argon2 with `argon2.*` on a pool of
    /// `argon2.concurrentHashes` threads, sessions as `sessions.*`. Throws when the modules'
    /// schema does not compose (see ``TenantSchemas/checkAllModules()``).
    public init(config: StorykeepConfig, pool: PostgresPool, logger: Logger, root: String = ".") throws {
        let hasher = try PasswordHasher(config: config.argon2)
        let directory = config.graphql.schemaDirectory
        let schemas = TenantSchemas(
            directory: URL(fileURLWithPath: directory.hasPrefix("/") ? directory : root + "/" + directory),
            documentCacheSize: config.graphql.documentCacheSize)
        try schemas.checkAllModules()
        self.init(
            schemas: schemas,
            services: DomainServices(
                pool: pool, hasher: hasher, sessions: SessionPolicy(config.sessions), logger: logger,
                // As many logins in their first transaction as hashes run at once, and at most half the pool.
                loginGate: AsyncGate(permits: max(1, min(config.argon2.concurrentHashes, config.database.poolSize / 2))),
                statementTimeout: config.database.statementTimeout))
    }

    /// What became of a request.
    public enum Outcome: Sendable {
        case response(GraphQLResponse)
        /// The operation's type is not in the allowed ones (a mutation over GET): nothing ran.
        case operationNotAllowed(OperationType)
    }

    /// Runs `request` for `tenant`. `authorization` is the request's `Authorization` header, if any.
    public func execute(
        _ request: GraphQLRequest, tenant: Tenant, authorization: String?,
        allowedOperationTypes: Set<OperationType> = [.query, .mutation]
    ) async -> Outcome {
        let composed: ComposedSchema
        do {
            composed = try schemas.schema(for: tenant.file)
        } catch {
            services.logger.error("Tenant schema unavailable", metadata: ["tenant": "\(tenant.slug)", "error": "\(error)"])
            return .response(GraphQLResponse(errors: [.internal()]))
        }
        let service = composed.service
        guard let type = service.operationType(of: request) else {
            // Invalid, or no operation to run: the service answers with the request error.
            var response = await service.execute(request)
            response.errors = response.errors.map(Self.documentError)
            return .response(response)
        }
        guard allowedOperationTypes.contains(type) else { return .operationNotAllowed(type) }

        let presented = Self.bearerToken(authorization)
        guard let presented else {
            return .response(await run(request, service, tenant, viewer: nil, invalidToken: false, transaction: nil))
        }
        guard let token = presented else {
            return .response(await run(request, service, tenant, viewer: nil, invalidToken: true, transaction: nil))
        }
        do {
            if type == .mutation && Self.selects(composed.ownTransactionFields, in: request) {
                let viewer = try await services.authenticated(token, tenantID: tenant.id) { viewer, _ in viewer }
                return .response(await run(request, service, tenant, viewer: viewer, invalidToken: viewer == nil, transaction: nil))
            }
            return .response(
                try await services.authenticated(token, tenantID: tenant.id) { viewer, tx in
                    let response = await run(request, service, tenant, viewer: viewer, invalidToken: viewer == nil, transaction: tx)
                    // A failed mutation changes nothing; a query with errors has nothing to keep
                    // either, and its transaction may have been aborted by a failed statement.
                    if !response.errors.isEmpty { throw RollBack(response: response) }
                    return response
                })
        } catch let rollBack as RollBack {
            return .response(rollBack.response)
        } catch let error as PostgresError where error.sqlState == PostgresError.SQLState.queryCanceled {
            // Authenticating the token took longer than the request's statement_timeout.
            services.logger.warning("Statement stopped by the request's statement_timeout", metadata: ["tenant": "\(tenant.slug)"])
            return .response(GraphQLResponse(data: .null, errors: [.timeout()]))
        } catch {
            services.logger.error("GraphQL request failed", metadata: ["tenant": "\(tenant.slug)", "error": "\(error)"])
            return .response(GraphQLResponse(data: .null, errors: [.internal()]))
        }
    }

    private struct RollBack: Error {
        var response: GraphQLResponse
    }

    private func run(
        _ request: GraphQLRequest, _ service: GraphQLService, _ tenant: Tenant, viewer: Viewer?, invalidToken: Bool,
        transaction: PostgresTransaction?
    ) async -> GraphQLResponse {
        let context = ResolverContext(
            tenant: tenant, viewer: viewer, presentedInvalidToken: invalidToken, services: services, transaction: transaction)
        var response = await service.execute(request, context: context)
        // The document is valid and names an operation (``execute`` checked), so a request
        // error here is a variable the schema refused (a missing `date`, a malformed `Date`):
        // input the person can correct.
        if response.isRequestError {
            response.errors = response.errors.map { error in
                var error = error
                if error.extensions?["code"] == nil { error.extensions = ["code": .string("BAD_USER_INPUT")] }
                return error
            }
        }
        return response
    }

    /// An error of a document that does not parse (`GRAPHQL_PARSE_FAILED`) or validate, or names
    /// no operation to run (`GRAPHQL_VALIDATION_FAILED`), with the code Apollo's servers give it,
    /// so that every error a client sees has a code. The engine marks syntax errors by their
    /// message, "Syntax Error: ...".
    private static func documentError(_ error: GraphQLError) -> GraphQLError {
        guard error.extensions?["code"] == nil else { return error }
        var error = error
        let code = error.message.hasPrefix("Syntax Error: ") ? "GRAPHQL_PARSE_FAILED" : "GRAPHQL_VALIDATION_FAILED"
        error.extensions = ["code": .string(code)]
        return error
    }

    /// The token of an `Authorization: Bearer <token>` header: nil without a header, `.some(nil)`
    /// when there is one but it holds no possible token (another scheme, a malformed token).
    static func bearerToken(_ header: String?) -> SessionToken?? {
        guard let header else { return nil }
        let parts = header.split(separator: " ", omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return .some(nil) }
        return .some(SessionToken(presented: parts[1]))
    }

    /// Whether the operation `request` selects has one of `fields` at its root (through
    /// fragments too). Only called for valid documents, whose root fields are the mutation's.
    static func selects(_ fields: Set<String>, in request: GraphQLRequest) -> Bool {
        guard !fields.isEmpty, let document = try? parse(request.query) else { return false }
        var fragments: [String: FragmentDefinition] = [:]
        var operations: [OperationDefinition] = []
        for definition in document.definitions {
            switch definition {
            case .operation(let operation): operations.append(operation)
            case .fragment(let fragment): fragments[fragment.name.value] = fragment
            default: break
            }
        }
        let selected = request.operationName.map { name in operations.first { $0.name?.value == name } } ?? operations.first
        guard let selected else { return false }
        var seen: Set<String> = []
        func walk(_ set: SelectionSet) -> Bool {
            set.selections.contains { selection in
                switch selection {
                case .field(let field): return fields.contains(field.name.value)
                case .inlineFragment(let inline): return walk(inline.selectionSet)
                case .fragmentSpread(let spread):
                    guard seen.insert(spread.name.value).inserted, let fragment = fragments[spread.name.value] else { return false }
                    return walk(fragment.selectionSet)
                }
            }
        }
        return walk(selected.selectionSet)
    }
}
