import Foundation

/// One agency, as its file in `tenants/<slug>.yaml` describes it.
///
/// The file's own keys (who the agency is, where it answers, which modules it has) are here; every
/// other key belongs to a module, which decodes and validates its part (``TenantSettings``) and
/// usually offers it as a property of `TenantFile` from its own folder (`file.archive`,
/// `file.lockout`). A file is read with the ``TenantFileFormat`` of the composed modules.
///
/// Decoding is strict and validating: an unknown key, a value of the wrong type, a missing required
/// key or an out-of-range value is an error whose coding path names the key (`TenantFileError`
/// turns it into file + key + what was expected). Optional keys take the defaults documented on
/// each property, and the decoded value, defaults included, is what `storykeep tenant apply` stores
/// in `tenants.config`, so the server never guesses a default of its own.
public struct TenantFile: Codable, Sendable, Equatable {
    /// `slug` (required): lowercase letters, digits and single hyphens; the file's name, and the
    /// path the tenant answers on, `/t/<slug>/`.
    public var slug: String
    /// `displayName` (required): the agency's name as people see it.
    public var displayName: String
    /// `hosts` (default none): host names that select this tenant by the HTTP `Host` header.
    public var hosts: [String]
    /// `timeZone` (required): an IANA zone such as `Europe/London`; days and streaks are counted in it.
    public var timeZone: String
    /// `termsVersion` (required): the terms people must have accepted; raising it asks again.
    public var termsVersion: String
    /// `termsSummary` (default none): the terms in a few plain sentences, at most 2,000
    /// characters in each of the agency's languages (``LocalizedText``), shown before login with
    /// the terms version (`GET /t/<slug>/`).
    public var termsSummary: LocalizedText?
    /// `modules` (required): the optional modules this agency enables (see ``TenantFileFormat``).
    public var modules: [TenantModule]
    /// `languages` (default `[en]`): the languages the agency's texts come in (``LocalizedText``)
    /// and its people may choose (`profile.language`), as ISO 639 codes (`en`, `cy`, `ga`, `pl`,
    /// `ro`, `ar`); English among them, every text's fallback.
    public var languages: [String]
    /// The modules' sections, by their type.
    private var sections: [ObjectIdentifier: any TenantSettings]

    enum CodingKeys: String, CodingKey, CaseIterable {
        case slug, displayName, hosts, timeZone, termsVersion, termsSummary, modules, languages
    }

    /// The section `type` of the file. Every section of the format the file was read with is
    /// there; asking for another is a mistake of the code.
    public subscript<Settings: TenantSettings>(_ type: Settings.Type) -> Settings {
        get {
            guard let section = sections[ObjectIdentifier(type)] as? Settings else {
                preconditionFailure("the tenant file was read without the section \(type)")
            }
            return section
        }
        set { sections[ObjectIdentifier(type)] = newValue }
    }

    /// Decodes every key and every module's section on its own, so that one mistake does not
    /// hide the next: a file with several problems throws ``TenantFileProblems`` listing each.
    public init(from decoder: any Decoder) throws {
        let format = decoder.userInfo[TenantFileFormat.userInfoKey] as? TenantFileFormat ?? TenantFileFormat()
        var problems: [any Error] = try decoder.unknownKeys(CodingKeys.self, alsoAllowing: format.sectionKeys)
        let c = try decoder.container(keyedBy: CodingKeys.self)
        func attempt<T>(_ decode: () throws -> T) -> T? {
            do {
                return try decode()
            } catch {
                problems.append(error)
                return nil
            }
        }
        let slug = attempt {
            let slug = try c.decode(String.self, forKey: .slug)
            try c.require(TenantFile.isValidSlug(slug), at: .slug, "a slug of lowercase letters, digits and single hyphens")
            return slug
        }
        let displayName = attempt {
            let name = try c.decode(String.self, forKey: .displayName)
            try c.require(!name.isBlank, at: .displayName, "a non-empty name")
            return name
        }
        let hosts = attempt {
            let hosts = try c.decode([String].self, forKey: .hosts, default: [])
            try c.require(hosts.allSatisfy(TenantFile.isValidHost), at: .hosts, "lowercase host names without port")
            try c.require(Set(hosts).count == hosts.count, at: .hosts, "each host once")
            return hosts
        }
        let timeZone = attempt {
            let zone = try c.decode(String.self, forKey: .timeZone)
            try c.require(TimeZone(identifier: zone) != nil, at: .timeZone, "an IANA time zone such as Europe/London")
            return zone
        }
        let termsVersion = attempt {
            let version = try c.decode(String.self, forKey: .termsVersion)
            try c.require(!version.isBlank, at: .termsVersion, "a non-empty version")
            return version
        }
        let modules = attempt {
            let modules = try c.decode([TenantModule].self, forKey: .modules)
            try c.require(Set(modules).count == modules.count, at: .modules, "each module once")
            return modules
        }
        let languages = attempt {
            let languages = try c.decode([String].self, forKey: .languages, default: [LocalizedText.fallback])
            try c.require(
                languages.allSatisfy(LocalizedText.isLanguageCode), at: .languages,
                "ISO 639 language codes of two or three lowercase letters, such as en, cy, ga, pl, ro, ar")
            try c.require(languages.contains(LocalizedText.fallback), at: .languages, "English (en) among them: every text falls back to it")
            try c.require(Set(languages).count == languages.count, at: .languages, "each language once")
            return languages
        }
        // The sections' texts may be in the file's languages only.
        var sections: [ObjectIdentifier: any TenantSettings] = [:]
        var termsSummary: LocalizedText?? = nil
        LocalizedText.$fileLanguages.withValue(languages ?? [LocalizedText.fallback]) {
            termsSummary = attempt {
                let summary = try c.decodeIfPresent(LocalizedText.self, forKey: .termsSummary)
                try c.require(
                    summary.map { $0.all.allSatisfy { !$0.isBlank && TextLimit.length(of: $0) <= 2000 } } ?? true, at: .termsSummary,
                    "a summary of 1 to 2000 characters in each language")
                return summary
            }
            for type in format.sections {
                sections[ObjectIdentifier(type)] = attempt { try type.init(from: decoder) }
            }
        }
        guard problems.isEmpty, let slug, let displayName, let hosts, let timeZone, let termsVersion, let termsSummary, let modules, let languages else {
            throw problems.count == 1 ? problems[0] : TenantFileProblems(errors: problems)
        }
        (self.slug, self.displayName, self.hosts, self.timeZone, self.termsVersion) = (slug, displayName, hosts, timeZone, termsVersion)
        self.modules = modules
        self.languages = languages
        self.termsSummary = termsSummary
        self.sections = sections
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(slug, forKey: .slug)
        try c.encode(displayName, forKey: .displayName)
        try c.encode(hosts, forKey: .hosts)
        try c.encode(timeZone, forKey: .timeZone)
        try c.encode(termsVersion, forKey: .termsVersion)
        try c.encode(modules, forKey: .modules)
        try c.encode(languages, forKey: .languages)
        try c.encodeIfPresent(termsSummary, forKey: .termsSummary)
        // Each section writes its keys into the same mapping.
        for section in sections.values { try section.encode(to: encoder) }
    }

    public static func == (lhs: TenantFile, rhs: TenantFile) -> Bool {
        (lhs.slug, lhs.displayName, lhs.hosts, lhs.timeZone, lhs.termsVersion) == (rhs.slug, rhs.displayName, rhs.hosts, rhs.timeZone, rhs.termsVersion)
            && lhs.modules == rhs.modules && lhs.languages == rhs.languages && lhs.termsSummary == rhs.termsSummary && lhs.sections.count == rhs.sections.count
            && lhs.sections.allSatisfy { key, section in rhs.sections[key].map(section.isEqual) ?? false }
    }

    /// True when this tenant enables `module`.
    public func enables(_ module: TenantModule) -> Bool {
        modules.contains(module)
    }

    /// `[a-z0-9]+(-[a-z0-9]+)*` within the slug's length limit. Byte loops, not Regex literals,
    /// here and in ``isValidHost(_:)``: a literal compiles its program again on every call, and
    /// every tenant file read checks many slugs (its own, its rewards' ids).
    package static func isValidSlug(_ slug: String) -> Bool {
        TextLimit.tenantSlug.admits(slug) && isLabel(slug.utf8, hyphensMayRepeat: false)
    }

    /// Lowercase DNS labels (`[a-z0-9]([a-z0-9-]*[a-z0-9])?`) joined by dots, 253 bytes at most.
    package static func isValidHost(_ host: String) -> Bool {
        host.utf8.count <= 253 && host.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false).allSatisfy {
            isLabel($0, hyphensMayRepeat: true)
        }
    }

    /// Letters a-z and digits, with hyphens between them (never first or last; never two
    /// together unless `hyphensMayRepeat`); not empty.
    private static func isLabel(_ bytes: some Collection<UInt8>, hyphensMayRepeat: Bool) -> Bool {
        let hyphen = UInt8(ascii: "-")
        var previous: UInt8?
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): break
            case hyphen where previous != nil && (hyphensMayRepeat || previous != hyphen): break
            default: return false
            }
            previous = byte
        }
        return previous != nil && previous != hyphen
    }
}

/// Every problem of one tenant file, each a decoding error at its key, in the file's order of
/// keys and then modules.
public struct TenantFileProblems: Error {
    public var errors: [any Error]
}

/// An optional module's name in a tenant file's `modules`: `tags`, `archive`. Each module declares
/// its own (`extension TenantModule { static let tags = TenantModule(rawValue: "tags") }`).
public struct TenantModule: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    public var rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// One of the names the decoder's ``TenantFileFormat`` knows; a module announced but not
    /// built yet is refused by name.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        rawValue = try container.decode(String.self)
        let format = decoder.userInfo[TenantFileFormat.userInfoKey] as? TenantFileFormat
        let known = format?.moduleNames ?? []
        if format?.unavailableModuleNames.contains(rawValue) == true {
            throw DecodingError.dataCorruptedError(
                in: container,
                debugDescription: "the module \"\(rawValue)\" is not available yet; expected one of: \(known.joined(separator: ", "))")
        }
        guard known.contains(rawValue) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "expected one of: \(known.joined(separator: ", ")); found \"\(rawValue)\"")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    public var description: String { rawValue }
}

/// A module's part of a tenant file: some of its top-level keys, decoded and validated by the
/// module, with their defaults (see ``TenantFile``). The type decodes from the whole file's
/// decoder and reads only its `keys` (the file checks that no other key is there); it encodes
/// its keys into the whole file's mapping.
public protocol TenantSettings: Codable, Sendable, Equatable {
    /// The top-level keys of a tenant file this section reads.
    static var keys: [String] { get }
}

extension TenantSettings {
    func isEqual(_ other: any TenantSettings) -> Bool {
        (other as? Self) == self
    }
}

/// How tenant files are read: the sections of the composed modules, and the names `modules` may
/// list. `StorykeepModules.tenantFileFormat` is the server's.
public struct TenantFileFormat: Sendable {
    /// Every module's sections.
    public var sections: [any TenantSettings.Type]
    /// What `modules` may name: the optional modules.
    public var moduleNames: [String]
    /// Modules announced but not built yet: `modules` naming one is refused with that reason,
    /// rather than as a misspelling.
    public var unavailableModuleNames: [String]

    public init(sections: [any TenantSettings.Type] = [], moduleNames: [String] = [], unavailableModuleNames: [String] = []) {
        self.sections = sections
        self.moduleNames = moduleNames
        self.unavailableModuleNames = unavailableModuleNames
    }

    var sectionKeys: [String] { sections.flatMap { $0.keys } }

    /// Where a decoder finds the format (`decoder.userInfo`).
    public static let userInfoKey = CodingUserInfoKey(rawValue: "storykeep.tenantFileFormat")!

    /// The `userInfo` of a decoder that reads tenant files in this format.
    public var userInfo: [CodingUserInfoKey: any Sendable] { [Self.userInfoKey: self] }
}

extension StringProtocol {
    package var isBlank: Bool { allSatisfy(\.isWhitespace) }
}
