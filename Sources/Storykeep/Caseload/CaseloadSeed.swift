import Foundation
import Postgres
public import StorykeepCore

/// The caseload of `storykeep seed`: every young person gets a social worker and a carer, in
/// turn, each adult taking the next young people in the seed's order until their caseload is full
/// (then the first adult again).
extension CaseloadModule {
    public var seedSettings: [String: String] {
        [
            "youngPeoplePerSocialWorker": "each social worker's caseload (default 12; 1-1000)",
            "youngPeoplePerCarer": "each carer's young people (default 3; 1-1000)",
        ]
    }

    public func seed(_ tenant: ModuleSeedTenant) async throws -> [String: Int] {
        let young = tenant.people(.youngPerson).map(\.id)
        var pairs: [(young: UUID, adult: UUID, relationship: AssignmentRelationship)] = []
        for relationship in [AssignmentRelationship.socialWorker, .carer] {
            let key = relationship == .carer ? "youngPeoplePerCarer" : "youngPeoplePerSocialWorker"
            let size = try tenant.setting(key, in: 1...1000, module: name, default: relationship == .carer ? 3 : 12)
            let adults = tenant.people(relationship.adultRole).map(\.id)
            guard !adults.isEmpty else { continue }
            for (position, person) in young.enumerated() {
                pairs.append((person, adults[position / size % adults.count], relationship))
            }
        }
        let assigned = try await tenant.pool.transaction(settings: AccountContext.tenantOperator(tenantID: tenant.id).settings) { tx in
            try await tx.query(
                CaseloadStatements.seedAssignments,
                pairs.map(\.young), pairs.map(\.adult), pairs.map(\.relationship.rawValue))[0].decode(Int.self, at: 0)
        }
        return ["assignments": assigned]
    }
}
