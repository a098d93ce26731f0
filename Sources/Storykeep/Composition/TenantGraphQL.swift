import Foundation
public import GraphQL
public import Logging
public import Postgres
public import StorykeepCore
import StorykeepAccounts
import StorykeepProfile

/// Runs a tenant's GraphQL requests: finds the tenant's schema, authenticates the bearer token,
/// and executes in the database context of whoever is asking.
///
/// - A document that does not parse or validate is answered without touching the database.
/// - Without a token, the request runs as nobody, without a transaction: anonymous requests can
///   reach only `login`, `activateAccount`, `me`, the agency's helplines (`safety`) and
///   introspection, and cost no connection.
/// - With a token, the request runs in one transaction: AUTHENTICATION finds the session by the
///   token's SHA-256 (tenant-bound, live, person not disabled) and slides its expiry; then the
///   transaction switches to the person (``AccountContext/person(tenantID:personID:role:)``) and
///   every resolver uses it; a query's transaction that wrote nothing commits without waiting
///   for the answer (one round trip less). A token that is no session may be a case-management
///   client's (where a module of the tenant has clients, ``ComposedSchema/clientAuthentication``): the request then
///   runs in the client's context and reaches only the fields for clients. A response with
///   errors is rolled back: a failed mutation changes nothing.
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
    /// `argon2.concurrentHashes` threads, sessions as `sessions.*`, live subscribers' queues as
    /// `live.queueBound`. Throws when the modules'
    /// schema does not compose (see ``TenantSchemas/checkAllModules()``). Stale reads go to
    /// `readPool` when given (`database.readUrl`).
    public init(config: StorykeepConfig, pool: PostgresPool, readPool: PostgresPool? = nil, logger: Logger, root: String = ".") throws {
        let hasher = try PasswordHasher(config: config.argon2)
        let directory = config.graphql.schemaDirectory
        let schemas = TenantSchemas(
            directory: URL(fileURLWithPath: directory.hasPrefix("/") ? directory : root + "/" + directory),
            documentCacheSize: config.graphql.documentCacheSize)
        try schemas.checkAllModules()
        var services = DomainServices(
            pool: pool, hasher: hasher, sessions: SessionPolicy(config.sessions), logger: logger,
            // As many logins in their first transaction as hashes run at once, and at most half the pool.
            loginGate: AsyncGate(permits: max(1, min(config.argon2.concurrentHashes, config.database.poolSize / 2))),
            statementTimeout: config.database.statementTimeout)
        services.live = LiveEvents(bufferLimit: config.live.queueBound)
        services.readPool = readPool
        self.init(schemas: schemas, services: services)
    }

    /// What became of a request.
    public enum Outcome: Sendable {
        case response(GraphQLResponse)
        /// The operation's type is not in the allowed ones (a mutation over GET): nothing ran.
        case operationNotAllowed(OperationType)
    }

    /// Runs `request` for `tenant` as whoever `credential` says; `links` builds the URLs its
    /// client reaches the server's other endpoints by; `requestID` is the HTTP request's id, which
    /// the audit trail records. A tenant with `graphql.trustedDocumentsOnly` runs only its
    /// registered documents (byte for byte), whichever way they came. `documentLookup` hears
    /// whether the request's document was in the schema's cache (the metrics' hits), once the
    /// request's one lookup has been made.
    public func execute(
        _ request: GraphQLRequest, tenant: Tenant, credential: Credential, links: any ResourceLinks,
        allowedOperationTypes: Set<OperationType> = [.query, .mutation], requestID: String? = nil, acceptLanguage: String? = nil,
        documentLookup: (_ cached: Bool) -> Void = { _ in }
    ) async -> Outcome {
        guard let composed = composedSchema(for: tenant) else { return .response(GraphQLResponse(errors: [.internal()])) }
        if let refused = Self.untrustedDocument(request, tenant: tenant) { return .response(refused) }
        let service = composed.service
        let prepared = service.prepare(request)
        documentLookup(prepared.wasCached)
        guard let operation = prepared.operation else {
            // Invalid, or no operation to run: the service answers with the request error.
            var response = await service.execute(prepared)
            response.errors = response.errors.map(Self.documentError)
            return .response(response)
        }
        guard allowedOperationTypes.contains(operation.type) else { return .operationNotAllowed(operation.type) }

        let language = RequestLanguage(
            languages: tenant.file.languages, acceptLanguage: acceptLanguage, personLanguage: { tx in try await ProfileStore(tx).language() })
        let run = Run(
            request: prepared, composed: composed, tenant: tenant, services: services, links: links, requestID: requestID, language: language)
        let token: SessionToken
        switch credential {
        case .none: return .response(await run(viewer: nil, invalidToken: false, transaction: nil))
        case .invalid: return .response(await run(viewer: nil, invalidToken: true, transaction: nil))
        case .bearer(let bearer): token = bearer
        }
        do {
            if operation.type == .mutation && !operation.rootFieldNames.isDisjoint(with: composed.ownTransactionFields) {
                let (viewer, client) = try await services.authenticated(token, tenantID: tenant.id) { viewer, tx in
                    (viewer, try await authenticatedClient(viewer, token, composed, tenant, tx))
                }
                return .response(await run(viewer: viewer, client: client, invalidToken: viewer == nil && client == nil, transaction: nil))
            }
            return .response(
                try await services.authenticated(token, tenantID: tenant.id, readOnly: operation.type == .query) { viewer, tx in
                    let client = try await authenticatedClient(viewer, token, composed, tenant, tx)
                    let response = await run(viewer: viewer, client: client, invalidToken: viewer == nil && client == nil, transaction: tx)
                    // A failed mutation changes nothing; a query with errors has nothing to keep
                    // either, and its transaction may have been aborted by a failed statement.
                    if !response.errors.isEmpty { throw RollBack(response: response) }
                    return response
                })
        } catch let rollBack as RollBack {
            return .response(rollBack.response)
        } catch {
            // The session lookup (past the statement_timeout, or sliding the session's expiry
            // with no room on the disk), or the COMMIT.
            let failure = GraphQLError.failure(error, logger: services.logger, "GraphQL request failed", metadata: ["tenant": "\(tenant.slug)"])
            return .response(GraphQLResponse(data: .null, errors: [failure]))
        }
    }

    /// The answer to `request` when `tenant` runs only its trusted documents
    /// (`graphql.trustedDocumentsOnly`) and this is not one of them, byte for byte; nil to run it.
    static func untrustedDocument(_ request: GraphQLRequest, tenant: Tenant) -> GraphQLResponse? {
        guard tenant.file.graphql.trustedDocumentsOnly, !tenant.trustedDocuments.contains(text: request.query) else { return nil }
        return GraphQLResponse(errors: [.persistedQueryNotAllowed()])
    }

    /// `tenant`'s schema; nil, logged, when it does not compose (a fault of the server, not of
    /// the request).
    func composedSchema(for tenant: Tenant) -> ComposedSchema? {
        do {
            return try schemas.schema(for: tenant.file)
        } catch {
            services.logger.error("Tenant schema unavailable", metadata: ["tenant": "\(tenant.slug)", "error": "\(error)"])
            return nil
        }
    }

    /// Runs `body` in one transaction as the person whose live session of `tenant` has `token`, or
    /// as nobody (`nil`) when it is no such session: what a request with a bearer token runs in
    /// (the server's file endpoints too).
    public func authenticated<T: Sendable>(
        _ token: SessionToken, tenant: Tenant, _ body: (Viewer?, PostgresTransaction) async throws -> T
    ) async throws -> T {
        try await services.authenticated(token, tenantID: tenant.id, body)
    }

    /// The client whose token `token` is, when it is no person's session (`viewer` nil) and the
    /// tenant's modules have clients; `tx` is then in the client's context.
    private func authenticatedClient(
        _ viewer: Viewer?, _ token: SessionToken, _ composed: ComposedSchema, _ tenant: Tenant, _ tx: PostgresTransaction
    ) async throws -> ServiceClient? {
        guard viewer == nil, let authentication = composed.clientAuthentication else { return nil }
        return try await authentication.authenticate(token, tenantID: tenant.id, at: services.now(), in: tx)
    }

    /// An error of a document that does not parse (`GRAPHQL_PARSE_FAILED`) or validate, or names
    /// no operation to run (`GRAPHQL_VALIDATION_FAILED`), with the code Apollo's servers give it,
    /// so that every error a client sees has a code. The engine marks syntax errors by their
    /// message, "Syntax Error: ...".
    static func documentError(_ error: GraphQLError) -> GraphQLError {
        guard error.extensions?["code"] == nil else { return error }
        var error = error
        let code = error.message.hasPrefix("Syntax Error: ") ? "GRAPHQL_PARSE_FAILED" : "GRAPHQL_VALIDATION_FAILED"
        error.extensions = ["code": .string(code)]
        return error
    }

    private struct RollBack: Error {
        var response: GraphQLResponse
    }
}

/// One request's execution, once its schema and operation are known.
private struct Run {
    var request: PreparedRequest
    var composed: ComposedSchema
    var tenant: Tenant
    var services: DomainServices
    var links: any ResourceLinks
    var requestID: String?
    var language: RequestLanguage

    func callAsFunction(
        viewer: Viewer?, client: ServiceClient? = nil, invalidToken: Bool, transaction: PostgresTransaction?
    ) async -> GraphQLResponse {
        let context = ResolverContext(
            tenant: tenant, viewer: viewer, presentedInvalidToken: invalidToken, services: services, transaction: transaction,
            events: composed.events, links: links, client: client, requestID: requestID, language: language)
        var response = await composed.service.execute(request, context: context)
        // The document is valid and names an operation (``TenantGraphQL/execute`` checked), so a
        // request error here is a variable the schema refused (a missing `date`, a malformed
        // `Date`): input the person can correct.
        if response.isRequestError {
            response.errors = response.errors.map { error in
                var error = error
                if error.extensions?["code"] == nil { error.extensions = ["code": .string("BAD_USER_INPUT")] }
                return error
            }
        }
        return response
    }
}
