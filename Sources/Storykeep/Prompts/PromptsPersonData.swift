public import StorykeepCore

extension PromptsModule {
    /// prompts.json of a person's data export, read in their own context ($1 the person).
    public var personDataFiles: [PersonDataQuery] {
        [
            .array("prompts.json", about: "Questions an adult sent you to write about (prompts), or that you sent: the question, when, and whether it was answered or put aside.", orderedBy: #"x."sentAt""#, rows: """
                select pr.id, pr.text as "question", pr.young_person_id as "youngPersonId", pr.adult_id as "adultId", pr.sent_at as "sentAt",
                       pr.answered_at as "answeredAt", pr.answered_entry_id as "answerEntryId", pr.dismissed_at as "dismissedAt"
                from adult_prompts pr where pr.tenant_id = current_tenant_id() and (pr.young_person_id = $1 or pr.adult_id = $1)
                """)
        ]
    }
}
