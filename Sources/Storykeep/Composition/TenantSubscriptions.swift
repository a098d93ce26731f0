import Foundation
public import GraphQL
import Logging
public import StorykeepCore

/// What one delivery of a live subscription comes to.
public enum LiveUpdate: Sendable {
    /// A response to send (`next`): the field's value as the subscriber sees it, or null with
    /// `extensions.refetch` when events may have been missed.
    case response(GraphQLResponse)
    /// The subscriber's session is no longer live (logged out, expired, disabled).
    case sessionEnded
}

extension TenantGraphQL {
    /// What subscribing gave.
    public enum SubscribeOutcome: Sendable {
        case subscribed(LiveSubscription)
        /// A request error, or the field refused (UNAUTHENTICATED, FORBIDDEN): nothing follows.
        case failed(GraphQLResponse)
    }

    /// The type of the operation `request` would run for `tenant`; nil when its document is
    /// invalid or names no operation to run (``execute(_:tenant:credential:links:allowedOperationTypes:)``
    /// then answers with the request error).
    public func operationType(of request: GraphQLRequest, tenant: Tenant) -> OperationType? {
        composedSchema(for: tenant)?.service.selectedOperation(of: request)?.type
    }

    /// Subscribes with `request` (a subscription operation) for `tenant` as the person whose live
    /// session `token` is. Each event is then read again in a transaction of its own, as that
    /// person, whose session is checked again each time (``LiveSubscription``).
    public func subscribe(_ request: GraphQLRequest, tenant: Tenant, token: SessionToken, links: any ResourceLinks) async
        -> SubscribeOutcome
    {
        guard let composed = composedSchema(for: tenant) else { return .failed(GraphQLResponse(errors: [.internal()])) }
        if let refused = Self.untrustedDocument(request, tenant: tenant) { return .failed(refused) }
        guard let operation = composed.service.selectedOperation(of: request) else {
            var response = await composed.service.execute(request)
            response.errors = response.errors.map(Self.documentError)
            return .failed(response)
        }
        guard operation.type == .subscription, let name = operation.rootFieldNames.first,
            let field = composed.subscriptions[name]
        else {
            return .failed(GraphQLResponse(errors: [.badUserInput(field: "query", "Only a subscription operation can be subscribed to.")]))
        }
        let viewer: Viewer?
        do {
            viewer = try await services.authenticated(token, tenantID: tenant.id) { viewer, _ in viewer }
        } catch {
            services.logger.error("Subscription's authentication failed", metadata: ["tenant": "\(tenant.slug)", "error": "\(error)"])
            return .failed(GraphQLResponse(errors: [.internal()]))
        }
        guard let viewer else {
            return .failed(GraphQLResponse(errors: [.unauthenticated("Your session has ended. Please log in again.")]))
        }
        let context = ResolverContext(
            tenant: tenant, viewer: viewer, presentedInvalidToken: false, services: services, transaction: nil,
            events: composed.events, links: links)
        switch await composed.service.subscribe(request, context: context) {
        case .failed(var response):
            // The document is valid: a request error is a variable the schema refused.
            response.errors = response.errors.map { error in
                var error = error
                if error.extensions?["code"] == nil { error.extensions = ["code": .string("BAD_USER_INPUT")] }
                return error
            }
            return .failed(response)
        case .subscribed(let stream):
            return .subscribed(
                LiveSubscription(
                    stream: stream, fieldName: name, field: field, token: token, viewer: viewer, context: context))
        }
    }
}

/// A live subscription: the updates to send, one per event the subscriber sees. Each event is
/// read in a transaction of its own that authenticates the token again, as the subscriber:
/// ``LiveSubscriptionField/load`` gives the field's value, or nothing when they do not see it
/// (the event is skipped), and the operation is executed over it in the same transaction.
public struct LiveSubscription: AsyncSequence, Sendable {
    public typealias Element = LiveUpdate

    let stream: SubscriptionStream
    let fieldName: String
    let field: LiveSubscriptionField
    let token: SessionToken
    /// The subscriber, as authenticated when subscribing.
    public let viewer: Viewer
    /// The subscription's context, without a transaction (the tenant, the services).
    let context: ResolverContext

    public struct AsyncIterator: AsyncIteratorProtocol {
        let subscription: LiveSubscription
        var events: SourceEventStream.AsyncIterator

        /// The next update; nil when the events end. Throws ``LiveEvents/SlowConsumer`` when the
        /// subscriber fell too far behind.
        public mutating func next() async throws -> LiveUpdate? {
            while let next = try await events.next() {
                switch next as? LiveDelivery {
                case .refetch?: return .response(await subscription.refetch())
                case .event(let event)?:
                    if let update = await subscription.deliver(event) { return update }
                case nil: continue
                }
            }
            return nil
        }
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(subscription: self, events: stream.sourceEvents.makeAsyncIterator())
    }

    /// The field null, with `extensions.refetch`.
    func refetch() async -> GraphQLResponse {
        var response = await stream.execute(event: [String: any Sendable](), contextValue: context)
        response.extensions = ["refetch": .bool(true)]
        return response
    }

    /// The update `event` comes to for the subscriber, or nil when they do not see it.
    func deliver(_ event: LiveEvent) async -> LiveUpdate? {
        let services = context.services
        do {
            return try await services.authenticated(token, tenantID: context.tenant.id) { viewer, tx in
                guard let viewer, viewer.sessionID == self.viewer.sessionID else { return LiveUpdate.sessionEnded }
                let eventContext = ResolverContext(
                    tenant: context.tenant, viewer: viewer, presentedInvalidToken: false, services: services, transaction: tx,
                    events: context.events, links: context.links)
                guard let value = try await field.load(event, eventContext) else { return nil }
                let response = await stream.execute(event: [fieldName: value] as [String: any Sendable], contextValue: eventContext)
                // Nothing to keep: a failed statement would have aborted the transaction.
                if !response.errors.isEmpty { throw Undone(response: response) }
                return LiveUpdate.response(response)
            }
        } catch let undone as Undone {
            return .response(undone.response)
        } catch {
            services.logger.error(
                "Live event delivery failed", metadata: ["tenant": "\(context.tenant.slug)", "kind": "\(event.kind)", "error": "\(error)"])
            return .response(GraphQLResponse(data: .null, errors: [.internal()]))
        }
    }

    /// A response with errors, whose transaction is rolled back.
    private struct Undone: Error {
        var response: GraphQLResponse
    }
}
