import Foundation
public import StorykeepCore

extension MessagingModule {
    /// The module's part of a person's data export: messages.json.
    public func personData(_ subject: PersonDataSubject) async throws -> [PersonDataFile] {
        [
            try await subject.json(
                "messages.json",
                about: "Your private conversations: the messages you sent and were sent, when, and when they were read.",
                MessagingPersonData.messages)
        ]
    }
}

/// The SQL of the module's part of a data export, in the person's own context; $1 the person.
enum MessagingPersonData {
    /// messages.json: each conversation of the person $1 that they read, with its messages.
    static let messages = """
        select jsonb_pretty(coalesce(jsonb_agg(to_jsonb(x) order by x."startedAt"), '[]'::jsonb)) from (
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
        ) x
        """
}
