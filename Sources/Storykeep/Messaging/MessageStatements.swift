import StorykeepJournals

/// The SQL of `MessageStore`. Values only as the parameters listed above each statement; no value
/// is spliced into the text, only the constant fragments of this enum and the table names given
/// to `MediaStatements`. Who reads and writes what is held by the policies of
/// Migrations/0042_messaging.sql (WHO MESSAGES WHOM, WHO READS A CONVERSATION there): no
/// statement here repeats those rules.
enum MessageStatements {
    // MARK: Conversations

    /// The columns `MessageRows.conversation` reads, of the conversation `c` with the other person
    /// `o.other` and its newest message `last` (``conversationFrom``): id, the other person, the
    /// name the reader knows them by (their social profile's, else the agency's name for someone
    /// of a current assignment), whether they are staff, the reader's unread messages, whether
    /// the reader may send, created_at, the newest message's id and time.
    static let conversationColumns = """
        c.id, o.other,
        coalesce((select sp.display_name from social_profiles sp where sp.tenant_id = c.tenant_id and sp.person_id = o.other),
                 (select p.display_name from people p where p.tenant_id = c.tenant_id and p.id = o.other), 'Someone'),
        coalesce((select sp.staff from social_profiles sp where sp.tenant_id = c.tenant_id and sp.person_id = o.other),
                 (select p.role <> 'YOUNG_PERSON' from people p where p.tenant_id = c.tenant_id and p.id = o.other), false),
        (select count(*) from messaging_messages m
         where m.tenant_id = c.tenant_id and m.recipient_id = current_person_id() and m.conversation_id = c.id and m.read_at is null),
        o.other in (select x from current_messaging_contacts() as x) and not current_person_suspended(),
        c.created_at, last.id, last.created_at
        """

    /// What ``conversationColumns`` reads from.
    static let conversationFrom = """
        from messaging_conversations c
        cross join lateral (select case when c.person_a = current_person_id() then c.person_b else c.person_a end as other) o
        left join lateral (select m.id, m.created_at from messaging_messages m
                           where m.tenant_id = c.tenant_id and m.conversation_id = c.id
                           order by m.created_at desc, m.id desc limit 1) last on true
        """

    /// The person's conversations, the latest active first.
    static let conversations = """
        select \(conversationColumns)
        \(conversationFrom)
        where c.tenant_id = current_tenant_id() and current_person_id() in (c.person_a, c.person_b)
        order by coalesce(last.created_at, c.created_at) desc, c.id desc
        """

    /// The person's conversation $1.
    static let conversation = """
        select \(conversationColumns)
        \(conversationFrom)
        where c.tenant_id = current_tenant_id() and c.id = $1 and current_person_id() in (c.person_a, c.person_b)
        """

    /// The person's social display name, else their name in the agency.
    static let myName = """
        select coalesce((select sp.display_name from social_profiles sp
                         where sp.tenant_id = current_tenant_id() and sp.person_id = current_person_id()),
                        (select p.display_name from people p where p.tenant_id = current_tenant_id() and p.id = current_person_id()))
        """

    /// The other person of the person's conversation $1.
    static let otherPerson = """
        select case when c.person_a = current_person_id() then c.person_b else c.person_a end
        from messaging_conversations c
        where c.tenant_id = current_tenant_id() and c.id = $1 and current_person_id() in (c.person_a, c.person_b)
        """

    /// Whether the person may message $1 now, and whether they are suspended.
    static let mayMessage = """
        select $1 in (select x from current_messaging_contacts() as x), current_person_suspended()
        """

    /// The conversation of the person and $1, started when there is none: its id.
    static let start = """
        with started as (
            insert into messaging_conversations (tenant_id, person_a, person_b)
            values (current_tenant_id(), least(current_person_id(), $1), greatest(current_person_id(), $1))
            on conflict (tenant_id, person_a, person_b) do nothing
            returning id
        )
        select id from started
        union all
        select c.id from messaging_conversations c
        where c.tenant_id = current_tenant_id() and c.person_a = least(current_person_id(), $1) and c.person_b = greatest(current_person_id(), $1)
        """

    // MARK: Messages

    /// The columns `MessageRows.message` reads, of the message `m`.
    static let messageColumns = """
        m.id, m.conversation_id, m.sender_id, m.sender_id = current_person_id(), m.text, m.created_at, m.read_at, m.removal_reason
        """

    /// The messages of the conversation $4, newest first, before ($1 timestamptz, $2 uuid); $3 of them.
    static let messages = """
        select \(messageColumns) from messaging_messages m
        where m.tenant_id = current_tenant_id() and m.conversation_id = $4 and (m.created_at, m.id) < ($1, $2)
        order by m.created_at desc, m.id desc
        limit $3
        """

    /// The messages among $1 (uuid[]) the person reads.
    static let messagesByID = """
        select \(messageColumns) from messaging_messages m
        where m.tenant_id = current_tenant_id() and m.id = any($1::uuid[])
        """

    /// Whether the person's earlier messages in the conversation $1 were all read (so that a new
    /// one is worth a notification).
    static let allMineRead = """
        select not exists (select from messaging_messages m
                           where m.tenant_id = current_tenant_id() and m.conversation_id = $1
                             and m.sender_id = current_person_id() and m.read_at is null)
        """

    /// A message of the person's in the conversation $1 to $2: text $3.
    static let send = """
        insert into messaging_messages as m (tenant_id, conversation_id, sender_id, recipient_id, text)
        values (current_tenant_id(), $1, current_person_id(), $2, $3)
        returning \(messageColumns)
        """

    /// Attaches the person's files $2 (uuid[]), in that order, to their message $1.
    static let attachMedia = MediaStatements.attach(to: "messaging_message_media", owner: "message_id", person: "sender_id")

    /// The files of the messages among $1 (uuid[]) the person reads, in order: the message's id,
    /// then the columns `MediaRows.decode` reads.
    static let mediaOfMessages = MediaStatements.attached(in: "messaging_message_media", owner: "message_id")

    /// Marks the messages to the person in the conversation $1 read (the read receipts).
    static let markRead = """
        update messaging_messages m set read_at = clock_timestamp()
        where m.tenant_id = current_tenant_id() and m.conversation_id = $1 and m.recipient_id = current_person_id() and m.read_at is null
        """

    /// How many messages to the person are unread, in every conversation.
    static let unreadTotal = """
        select count(*) from messaging_messages m
        where m.tenant_id = current_tenant_id() and m.recipient_id = current_person_id() and m.read_at is null
        """

    // MARK: Reports and moderation

    /// Whether the message $1 was sent to the person, who reads it.
    static let sentToMe = """
        select exists (select from messaging_messages m
                       where m.tenant_id = current_tenant_id() and m.id = $1 and m.recipient_id = current_person_id())
        """

    /// Marks the message $1, sent to the person, reported (the first time), so that moderators read it.
    static let markReported = """
        update messaging_messages m set reported_at = clock_timestamp()
        where m.tenant_id = current_tenant_id() and m.id = $1 and m.recipient_id = current_person_id() and m.reported_at is null
        """

    /// The person reports the message $1 for the reason $2 with the text $3; again while the
    /// first report is open changes nothing.
    static let report = """
        insert into messaging_reports (tenant_id, message_id, reporter_id, reason, text)
        values (current_tenant_id(), $1, current_person_id(), $2::text::social_report_reason, $3)
        on conflict do nothing
        """

    /// The messages with open reports, by their first open report, newest first, before ($1, $2);
    /// $3 of them: the message's columns, then since when.
    static let reported = """
        select \(messageColumns), r.since
        from (select r.message_id, min(r.created_at) as since from messaging_reports r
              where r.tenant_id = current_tenant_id() and r.resolved_at is null
              group by r.message_id) r
        join messaging_messages m on m.tenant_id = current_tenant_id() and m.id = r.message_id
        where (r.since, m.id) < ($1, $2)
        order by r.since desc, m.id desc
        limit $3
        """

    /// The open reports of the messages among $1 (uuid[]), oldest first: the message, reason,
    /// text, when. Never who reported.
    static let openReports = """
        select r.message_id, r.reason::text, r.text, r.created_at
        from messaging_reports r
        where r.tenant_id = current_tenant_id() and r.resolved_at is null and r.message_id = any($1::uuid[])
        order by r.created_at, r.id
        """

    /// Removes the message $1 (reported, not removed yet) for the reason $2.
    static let remove = """
        update messaging_messages m set removed_at = clock_timestamp(), removal_reason = $2
        where m.tenant_id = current_tenant_id() and m.id = $1 and m.removed_at is null
        returning \(messageColumns)
        """

    /// Closes the open reports of the message $1 as $2 (`REMOVED`, `DISMISSED`): how many.
    static let resolve = """
        with resolved as (
            update messaging_reports r set resolved_at = clock_timestamp(), resolution = $2
            where r.tenant_id = current_tenant_id() and r.resolved_at is null and r.message_id = $1
            returning 1
        )
        select count(*) from resolved
        """
}
