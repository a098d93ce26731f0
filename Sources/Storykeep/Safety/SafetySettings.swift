public import StorykeepCore

extension TenantFile {
    /// `safety`: who to call, and when an alert goes to the admins. Every tenant has safety alerts.
    public var safety: SafetyPolicy {
        get { self[SafetyPolicy.self] }
        set { self[SafetyPolicy.self] = newValue }
    }
}

/// `safety:` in a tenant file.
public struct SafetyPolicy: TenantFileValue {
    public static let tenantFileKey = "safety"
    public static let defaultValue = SafetyPolicy()

    /// `helplines` (default none): shown to anyone who asks (`safety { helplines }`), in order.
    public var helplines: [Helpline]
    /// `escalateAfterMinutes` (default 15, 1–1440): an alert nobody acknowledged for this long
    /// goes to the agency admins.
    public var escalateAfterMinutes: Int

    public init(helplines: [Helpline] = [], escalateAfterMinutes: Int = 15) {
        self.helplines = helplines
        self.escalateAfterMinutes = escalateAfterMinutes
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case helplines, escalateAfterMinutes }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.strictContainer(keyedBy: CodingKeys.self)
        helplines = try c.decode([Helpline].self, forKey: .helplines, default: [])
        escalateAfterMinutes = try c.decode(Int.self, forKey: .escalateAfterMinutes, default: 15, in: 1...1440, "a number of minutes")
    }
}

/// One entry of `safety.helplines`: a name, and a phone number or a web address or both.
public struct Helpline: Codable, Sendable, Equatable {
    /// `name` (required): 1 to 100 characters (Unicode code points), in the agency's languages
    /// (``LocalizedText``).
    public var name: LocalizedText
    /// `phone`: digits, spaces and `+ ( ) -`, 3 to 30 characters.
    public var phone: String?
    /// `hours`: when it answers, in words, 1 to 100 characters, in the agency's languages.
    public var hours: LocalizedText?
    /// `url`: an `https://` or `http://` address of at most 500 characters.
    public var url: String?

    public init(name: String, phone: String? = nil, hours: String? = nil, url: String? = nil) {
        self.name = LocalizedText(name)
        self.phone = phone
        self.hours = hours.map { LocalizedText($0) }
        self.url = url
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case name, phone, hours, url }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.strictContainer(keyedBy: CodingKeys.self)
        name = try c.decode(LocalizedText.self, forKey: .name)
        try c.require(
            name.all.allSatisfy { !$0.isBlank && TextLimit.length(of: $0) <= 100 }, at: .name, "a name of 1 to 100 characters in each language")
        phone = try c.decodeIfPresent(String.self, forKey: .phone)
        try c.require(phone.map(Self.isPhone) ?? true, at: .phone, "a phone number of 3 to 30 digits, spaces and + ( ) -")
        hours = try c.decodeIfPresent(LocalizedText.self, forKey: .hours)
        try c.require(
            hours.map { $0.all.allSatisfy { !$0.isBlank && TextLimit.length(of: $0) <= 100 } } ?? true, at: .hours,
            "1 to 100 characters in each language")
        url = try c.decodeIfPresent(String.self, forKey: .url)
        try c.require(url.map(Self.isWebAddress) ?? true, at: .url, "an https:// or http:// address of at most 500 characters")
        try c.require(phone != nil || url != nil, at: .phone, "a phone number or a url (or both)")
    }

    /// The `Helpline` object, its words in `language`.
    func value(in language: String) -> [String: any Sendable] {
        ["name": name.text(in: language), "phone": phone, "hours": hours?.text(in: language), "url": url]
    }

    static func isPhone(_ text: String) -> Bool {
        (3...30).contains(TextLimit.length(of: text)) && text.wholeMatch(of: /[0-9 +()\-]+/) != nil && text.contains(where: \.isNumber)
    }

    static func isWebAddress(_ text: String) -> Bool {
        TextLimit.length(of: text) <= 500 && text.wholeMatch(of: /https?:\/\/[^\s\/?#]+[^\s]*/) != nil
    }
}
