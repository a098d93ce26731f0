import GraphQL
public import Hummingbird
public import Storykeep

/// `GET <tenant root>/schema.graphql`: the SDL of the tenant's schema (the modules always on and
/// those its file enables), for its agency admins, with `Authorization: Bearer <token>`, so that
/// an app team's code generator can read the schema it builds against without introspection being
/// open to everyone. 401 without a live session, 403 for anyone but an agency admin.
public struct SchemaEndpoint: TenantEndpoint {
    public let graphQL: TenantGraphQL

    public init(graphQL: TenantGraphQL) {
        self.graphQL = graphQL
    }

    public func register(on group: RouterGroup<TenantRequestContext>) {
        group.get("schema.graphql") { _, context in
            guard case .bearer(let token) = context.credential,
                let viewer = try await graphQL.authenticated(token, tenant: context.tenant, { viewer, _ in viewer })
            else {
                throw HTTPError(.unauthorized, headers: [.wwwAuthenticate: "Bearer"], message: "Please log in.")
            }
            guard viewer.role == .agencyAdmin else {
                throw HTTPError(.forbidden, message: "Only the agency's admins may read its schema.")
            }
            let sdl = printSchema(try graphQL.schemas.schema(for: context.tenant.file).schema)
            return Response(
                status: .ok,
                headers: [.contentType: "text/plain; charset=utf-8", .cacheControl: "private, no-cache"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: sdl + "\n")))
        }
    }
}
