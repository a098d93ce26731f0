public import StorykeepCore

extension MessagingModule {
    /// messages.json of a person's data export, read in their own context ($1 the person): each
    /// conversation they read, with its messages.
    public var personDataFiles: [PersonDataQuery] {
        [
            .array("messages.json", about: "Your private conversations: the messages you sent and were sent, when, and when they were read.", orderedBy: #"x."startedAt""#, rows: """
                select c.id, c.created_at as "startedAt",
                       case when c.person_a = $1 then c.person_b else c.person_a end as "withPersonId",
                       (select coalesce(jsonb_agg(jsonb_build_object(
                                   'id', m.id, 'sentByYou', m.sender_id = $1, 'text', m.text, 'at', m.created_at,
                                   'readAt', m.read_at, 'removalReason', m.removal_reason,
                                   'files', (select coalesce(jsonb_agg(mm.media_id order by mm.position), '[]'::jsonb)
                                             from messaging_message_media mm
                                             where mm.tenant_id = m.tenant_id and mm.message_id = m.id))
                                 order by m.created_at, m.id), '[]'::jsonb)
                        from messaging_messages m where m.tenant_id = c.tenant_id and m.conversation_id = c.id) as messages
                from messaging_conversations c
                where c.tenant_id = current_tenant_id() and $1 in (c.person_a, c.person_b)
                """)
        ]
    }
}
