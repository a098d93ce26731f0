public import StorykeepCore

extension TenantModule {
    /// `messaging` in a tenant file's `modules`.
    public static let messaging = TenantModule(rawValue: "messaging")
}

extension TenantFile {
    /// `messaging`: how many messages one person may send in an hour. Read only while the module
    /// is on.
    public var messaging: MessagingPolicy {
        get { self[MessagingPolicy.self] }
        set { self[MessagingPolicy.self] = newValue }
    }
}

/// `messaging:` in a tenant file.
public struct MessagingPolicy: TenantFileValue {
    public static let tenantFileKey = "messaging"
    public static let defaultValue = MessagingPolicy()

    /// `messagesPerHour` (default 120, 1-1000): per person, counted in the database (the social
    /// module's `social_rate_events`), so that it holds across servers.
    public var messagesPerHour: Int

    public init(messagesPerHour: Int = 120) {
        self.messagesPerHour = messagesPerHour
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case messagesPerHour }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.strictContainer(keyedBy: CodingKeys.self)
        messagesPerHour = try c.decode(Int.self, forKey: .messagesPerHour, default: 120, in: 1...1000, "a number")
    }
}
