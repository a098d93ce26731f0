import Foundation
public import StorykeepCore

extension PromptsModule {
    /// The module's part of a person's data export: prompts.json.
    public func personData(_ subject: PersonDataSubject) async throws -> [PersonDataFile] {
        [
            try await subject.json("prompts.json", about: "Questions an adult sent you to write about (prompts), or that you sent: the question, when, and whether it was answered or put aside.", PromptsPersonData.prompts)
        ]
    }
}

/// The SQL of the module's part of a data export, in the person's own context; $1 the person.
enum PromptsPersonData {
    /// prompts.json: the rows of the person $1, as JSON.
    static let prompts = """
        select jsonb_pretty(coalesce(jsonb_agg(to_jsonb(x) order by x."sentAt"), '[]'::jsonb)) from (
            select pr.id, pr.text as "question", pr.young_person_id as "youngPersonId", pr.adult_id as "adultId", pr.sent_at as "sentAt",
                   pr.answered_at as "answeredAt", pr.answered_entry_id as "answerEntryId", pr.dismissed_at as "dismissedAt"
            from adult_prompts pr where pr.tenant_id = current_tenant_id() and (pr.young_person_id = $1 or pr.adult_id = $1)
        ) x
        """
}
