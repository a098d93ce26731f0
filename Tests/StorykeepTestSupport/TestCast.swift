import StorykeepCore

/// The people of the HTTP tests of the caseload and of the modules built on it (prompts, safety,
/// notifications), each always with the same name, role and display name, so that every suite
/// reads alike and a title such as "Wendy Walker sent you a prompt" names the same person in all
/// of them. Young people have no display name of their own (the name, capitalised).
public enum CastMember: Sendable {
    /// Ada Admin, an agency admin.
    case ada
    /// Fay Foreign, an agency admin (of another tenant, in the tests that have two).
    case fay
    /// Young people: Sam, Alex, Zoe; Olly (of another tenant, in the tests that have two).
    case sam, alex, zoe, olly
    /// Social workers: Wendy Walker, Ivy Irwin, Dora Dunn, Dan Doe; Will Foreign (of another tenant).
    case wendy, ivy, dora, dan, will
    /// Carl Carter, a carer.
    case carl

    var role: PersonRole {
        switch self {
        case .ada, .fay: .agencyAdmin
        case .sam, .alex, .zoe, .olly: .youngPerson
        case .wendy, .ivy, .dora, .dan, .will: .socialWorker
        case .carl: .carer
        }
    }

    /// Their name, the case's (`wendy`), from which their login name is made
    /// (``TestTenant/newPerson(_:_:displayName:loginName:)``).
    var name: String { "\(self)" }

    var displayName: String? {
        switch self {
        case .ada: "Ada Admin"
        case .fay: "Fay Foreign"
        case .sam, .alex, .zoe, .olly: nil
        case .wendy: "Wendy Walker"
        case .ivy: "Ivy Irwin"
        case .dora: "Dora Dunn"
        case .dan: "Dan Doe"
        case .will: "Will Foreign"
        case .carl: "Carl Carter"
        }
    }
}

extension AccountsHarness {
    /// `member` of the cast in `tenant` (the first by default), made by the tenant's operator and
    /// activated, as ``person(_:_:displayName:loginName:password:tenant:)`` makes anyone. Each
    /// member once per tenant: their login name is theirs alone.
    public func cast(_ member: CastMember, tenant: TestTenant? = nil) async throws -> TestPerson {
        try await person(member.role, member.name, displayName: member.displayName, tenant: tenant)
    }
}
