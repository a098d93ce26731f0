import Foundation
public import GraphQL
public import StorykeepCore

/// Notifications in the schema (Schema/notifications.graphql): a person's notifications, newest
/// first, how many are unread, and marking them read. Always on. Other modules write them with
/// ``Notifications/notify(_:kind:title:subject:in:)`` in the transaction of what they tell.
public struct NotificationsModule: StorykeepModule {
    public init() {}

    public var name: String { "notifications" }
    public var switchedBy: TenantModule? { nil }

    public func register(_ module: inout ModuleRegistry) {
        module.query("notifications", access: .authenticated) { arguments, context in
            let after = try context.cursors.position(after: arguments["after"]?.stringValue, of: NotificationPosition.self)
            return try await context.transaction { tx in
                try await NotificationStore(tx).notifications(
                    first: arguments["first"]?.intValue ?? 20, after: after, unreadOnly: arguments["unreadOnly"]?.boolValue ?? false)
            }.connection(cursors: context.cursors, node: { $0 })
        }
        module.query("unreadNotificationCount", access: .authenticated) { _, context in
            try await context.transaction { tx in try await NotificationStore(tx).unreadCount() }
        }
        module.mutation("markNotificationsRead", access: .authenticated) { arguments, context in
            // Without `ids` (or with null), every notification of the person's.
            let ids: [UUID]? = arguments["ids"]?.listValue == nil ? nil : try arguments.ids("ids", field: "ids")
            return try await context.transaction { tx in try await NotificationStore(tx).markRead(ids: ids) }
        }
        module.subscription("notificationAdded", access: .authenticated, concerns: { event, viewer in event.people.contains(viewer.personID) }) {
            event, context in
            try await context.transaction { tx in try await NotificationStore(tx).notification(id: event.id) }
        }
    }
}

extension Notification: GraphQLFieldReadable {
    public func value(forField name: String) -> (any Sendable)? {
        switch name {
        case "id": id.lowercased
        case "kind": kind
        case "title": title
        case "actorId": actorID?.lowercased
        case "subjectKind": subject?.kind
        case "subjectId": subject?.id.lowercased
        case "createdAt": DateTimeScalar.string(createdAt)
        case "readAt": readAt.map(DateTimeScalar.string)
        case "read": readAt != nil
        default: nil
        }
    }
}
