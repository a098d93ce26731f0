public import Hummingbird
import Logging

/// Finds the tenant a request is for, before routing, and puts it in the context and in the
/// request's log metadata (`tenant`, in the context's logger and ``RequestLogMetadata``).
///
/// The path `/t/<slug>/...` selects a tenant by slug; otherwise the `Host` header (lowercased,
/// port dropped) may be one of a tenant's `hosts`. When both apply they must agree: a tenant's
/// host never serves another tenant's path, so one agency's domain cannot be used to reach
/// another's data. The middleware only resolves; ``TenantRequestContext`` turns an unknown
/// tenant into 404 for the tenant routes, and the request log sees every outcome.
public struct TenantMiddleware: RouterMiddleware {
    public typealias Context = StorykeepRequestContext

    let tenants: TenantCache

    public init(tenants: TenantCache) {
        self.tenants = tenants
    }

    public func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var context = context
        context.tenant = await Self.resolve(request, in: tenants)
        switch context.tenant {
        case .found(let tenant):
            context.logger[metadataKey: "tenant"] = .string(tenant.slug)
            context.tenantRoot = Self.slug(inPath: request.uri.path) == nil ? "/" : "/t/\(tenant.slug)/"
        case .unknown(let slug): context.logger[metadataKey: "tenant"] = .string(slug)
        case .none, .unavailable: break
        }
        guard let tenant = context.logger[metadataKey: "tenant"] else { return try await next(request, context) }
        return try await RequestLogMetadata.adding(["tenant": tenant]) { try await next(request, context) }
    }

    /// The tenant `request` is for, by its path and its `Host` header.
    static func resolve(_ request: Request, in tenants: TenantCache) async -> TenantResolution {
        do {
            let byHost = try await Self.host(of: request).asyncFlatMap { try await tenants.tenant(host: $0) }
            guard let slug = Self.slug(inPath: request.uri.path) else {
                return byHost.map(TenantResolution.found) ?? .none
            }
            if let byHost, byHost.slug != slug { return .unknown(slug: slug) }
            return try await tenants.tenant(slug: slug).map(TenantResolution.found) ?? .unknown(slug: slug)
        } catch {
            return .unavailable
        }
    }

    /// The slug of `/t/<slug>` or `/t/<slug>/...`, if the path has that shape. A slug that is no
    /// valid slug (too long, other characters) is kept as `"-"`: it names no tenant, and it
    /// should not reach the logs verbatim.
    static func slug(inPath path: String) -> String? {
        guard path.hasPrefix("/t/") else { return nil }
        let rest = path.dropFirst(3)
        let slug = rest.prefix { $0 != "/" }
        guard !slug.isEmpty else { return nil }
        let valid = slug.utf8.count <= 63 && slug.utf8.allSatisfy { $0 == UInt8(ascii: "-") || (0x30...0x39).contains($0) || (0x61...0x7a).contains($0) }
        return valid ? String(slug) : "-"
    }

    /// The request's host, lowercased, without port.
    static func host(of request: Request) -> String? {
        guard let authority = request.head.authority else { return nil }
        let host = authority.hasPrefix("[") ? authority.prefix { $0 != "]" } + "]" : authority.prefix { $0 != ":" }
        return host.isEmpty ? nil : host.lowercased()
    }
}

extension Optional {
    fileprivate func asyncFlatMap<U>(_ transform: (Wrapped) async throws -> U?) async rethrows -> U? {
        guard let self else { return nil }
        return try await transform(self)
    }
}
