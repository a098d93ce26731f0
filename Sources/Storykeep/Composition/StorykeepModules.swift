public import StorykeepCore
public import StorykeepTenancy
public import Postgres

/// The composition root: every module the server knows, in the order their SDL is composed (after
/// the core's). The server, the command line and the tests all take the modules from here; nothing
/// else lists them. Adding a module adds one line here (and its target in Package.swift).
public enum StorykeepModules {
    public static let all: [any StorykeepModule] = [
        AccountsModule(),
        JournalsModule(),
        ProfileModule(),
        TagsModule(),
        ArchiveModule(),
        RewardsModule(),
        NotificationsModule(),
        CaseloadModule(),
        SharingModule(),
        PromptsModule(),
        SafetyModule(),
        ExportModule(),
        AuditModule(),
        SocialModule(),
        MessagingModule(),
        WebhooksModule(),
        FiguresModule(),
        PrivacyModule(modules: { StorykeepModules.all }),
    ]

    /// Module names announced whose modules have not landed yet: a tenant file's `modules`
    /// naming one is refused ("not available yet"), so that no agency believes it has it.
    public static let announced: [TenantModule] = []

    /// How tenant files are read: every module's sections.
    public static let tenantFileFormat = format(of: all)

    /// How the tenants table is read: as tenant files are, but for the announced modules, which
    /// an earlier version accepted in files: a tenant applied then, naming one, is still served
    /// (the name switches nothing on), until its files are applied again.
    public static let storedTenantFormat: TenantFileFormat = {
        var format = tenantFileFormat
        format.moduleNames += format.unavailableModuleNames
        format.unavailableModuleNames = []
        return format
    }()

    /// The sections of a tenant file the server itself reads, whatever the modules: `graphql`,
    /// `cors`, `rateLimits`.
    public static let serverSections: [any TenantSettings.Type] = [
        TenantSection<GraphQLPolicy>.self, TenantSection<CORSPolicy>.self, TenantSection<RateLimitPolicy>.self,
    ]

    /// The tenant file format of `modules` (and the server's sections).
    public static func format(of modules: [any StorykeepModule]) -> TenantFileFormat {
        TenantFileFormat(
            sections: serverSections + modules.flatMap(\.tenantSettings),
            moduleNames: modules.compactMap(\.switchedBy).map(\.rawValue),
            unavailableModuleNames: announced.map(\.rawValue))
    }

    /// Every module's background jobs.
    public static func backgroundJobs(_ config: StorykeepConfig) -> [BackgroundJob] {
        all.flatMap { $0.backgroundJobs(config) }
    }

    /// Every module's HTTP endpoints.
    public static var endpoints: [ModuleEndpoint] {
        all.flatMap(\.endpoints)
    }
}

// Tenant files in the server's format, unless a caller says otherwise.

extension TenantFiles {
    /// Reads and validates every tenant file in `directory` (see ``load(directory:format:)``).
    public static func load(directory: String) throws(TenantFilesError) -> [TenantFile] {
        try load(directory: directory, format: StorykeepModules.tenantFileFormat)
    }

    /// Reads one tenant file, whose name must be its slug.
    public static func load(file path: String) throws(TenantFileError) -> TenantFile {
        try load(file: path, format: StorykeepModules.tenantFileFormat)
    }

    /// Decodes the YAML text of a tenant file; `file` names it in errors.
    public static func decode(_ text: String, file: String) throws(TenantFileError) -> TenantFile {
        try decode(text, file: file, format: StorykeepModules.tenantFileFormat)
    }
}

extension TenantStore {
    /// The tenants table, read in the server's tenant file format (``StorykeepModules/storedTenantFormat``).
    public init(pool: PostgresPool) {
        self.init(pool: pool, format: StorykeepModules.storedTenantFormat)
    }
}
