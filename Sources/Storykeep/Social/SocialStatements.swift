/// The SQL of `SocialStore`: profiles, friendships and blocks. Values only as the parameters
/// listed above each statement; no value is spliced into the text, only the constant fragments of
/// this enum. The policies of Migrations/0032_social.sql hold each statement to what the person
/// acting may see and write (who takes part, blocks both ways) whatever it says; what a statement
/// adds is what a policy cannot say of a column: a private profile's bio and interests only for
/// its person, their friends and the moderating admin.
enum SocialStatements {
    // MARK: Profiles

    /// The columns `SocialRows.profile` reads, of the profile `p` (with `FROM` ``profileFrom``):
    /// person, display name, bio and interests (left out of a private profile for a non-friend),
    /// private, discoverable (own only), staff, and the reader's `Friendship` with them.
    static let profileColumns = """
        p.person_id, p.display_name,
        case when \(seesAll) then p.bio end,
        case when \(seesAll) then p.interests else '{}'::text[] end,
        p.private, case when p.person_id = current_person_id() then p.discoverable end, p.staff,
        fs.state
        """

    /// What ``profileColumns`` reads from: the profile `p` and the reader's friendship state `fs`.
    static let profileFrom = """
        from social_profiles p
        \(friendshipState)
        """

    /// The reader's friendship state `fs` with the person of the profile `p`.
    static let friendshipState = """
        cross join lateral (
            select case when p.person_id = current_person_id() then 'YOU'
                   else coalesce((select case when f.accepted_at is not null then 'FRIENDS'
                                              when f.requester_id = current_person_id() then 'REQUEST_SENT'
                                              else 'REQUEST_RECEIVED' end
                                  from social_friendships f
                                  where f.tenant_id = p.tenant_id
                                    and least(f.requester_id, f.addressee_id) = least(p.person_id, current_person_id())
                                    and greatest(f.requester_id, f.addressee_id) = greatest(p.person_id, current_person_id())),
                                 'NONE') end as state
        ) fs
        """

    /// Whether the reader sees the whole of the profile `p`: theirs, public, a friend's, or the
    /// moderating admin's reading.
    private static let seesAll = """
        (p.person_id = current_person_id() or not p.private or fs.state = 'FRIENDS' or current_person_moderates_social())
        """

    /// The profiles of the people among $1 (uuid[]) the person may read.
    static let profilesByID = """
        select \(profileColumns)
        \(profileFrom)
        where p.tenant_id = current_tenant_id() and p.person_id = any($1::uuid[])
        """

    /// The discoverable people whose display name, or a word of it, starts with $1 (lower-case),
    /// but the person themselves, by name; $2 of them.
    static let search = """
        select \(profileColumns)
        \(profileFrom)
        where p.tenant_id = current_tenant_id() and p.discoverable and p.person_id <> current_person_id()
          and (starts_with(p.name_key, $1) or strpos(p.name_key, ' ' || $1) > 0)
        order by p.name_key, p.person_id
        limit $2
        """

    /// Makes or replaces the person's profile: display name $1, bio $2, interests $3 (text[]),
    /// private $4, discoverable $5; staff when they are not a young person.
    static let saveProfile = """
        insert into social_profiles (tenant_id, person_id, display_name, bio, interests, private, discoverable, staff)
        values (current_tenant_id(), current_person_id(), $1, $2, $3::text[], $4, $5, current_person_role() <> 'YOUNG_PERSON')
        on conflict (tenant_id, person_id) do update
        set display_name = excluded.display_name, bio = excluded.bio, interests = excluded.interests,
            private = excluded.private, discoverable = excluded.discoverable, updated_at = clock_timestamp()
        """

    /// Whether the person has a profile and takes part now, in one row.
    static let takesPart = """
        select exists (select from social_profiles p where p.tenant_id = current_tenant_id() and p.person_id = current_person_id()),
               current_person_in_social()
        """

    // MARK: Friendships

    /// What `sendFriendRequest` asks of the person $1 in one row: whether their profile is one the
    /// person may read; and the friendship between the two if any: its id, requester, accepted_at.
    static let friendshipWith = """
        select exists (select from social_profiles p where p.tenant_id = current_tenant_id() and p.person_id = $1),
               f.id, f.requester_id, f.accepted_at
        from (select) as one
        left join social_friendships f
          on f.tenant_id = current_tenant_id()
         and least(f.requester_id, f.addressee_id) = least($1, current_person_id())
         and greatest(f.requester_id, f.addressee_id) = greatest($1, current_person_id())
        """

    /// Asks the person $1 to be friends; returns the request's id.
    static let request = """
        insert into social_friendships (tenant_id, requester_id, addressee_id)
        values (current_tenant_id(), current_person_id(), $1)
        returning id
        """

    /// Accepts the request $1 made to the person; returns who asked.
    static let accept = """
        update social_friendships set accepted_at = clock_timestamp()
        where tenant_id = current_tenant_id() and id = $1 and addressee_id = current_person_id() and accepted_at is null
        returning requester_id
        """

    /// Declines the request $1 made to the person; returns who asked.
    static let decline = """
        delete from social_friendships
        where tenant_id = current_tenant_id() and id = $1 and addressee_id = current_person_id() and accepted_at is null
        returning requester_id
        """

    /// Ends whatever stands between the person and $1 (friendship or request, either way:
    /// removing a friend, and blocking); returns whether there was one and it was a friendship.
    static let unfriend = """
        delete from social_friendships
        where tenant_id = current_tenant_id()
          and least(requester_id, addressee_id) = least($1, current_person_id())
          and greatest(requester_id, addressee_id) = greatest($1, current_person_id())
        returning accepted_at is not null
        """

    /// The person's friends, by name.
    static let friends = """
        select \(profileColumns)
        \(profileFrom)
        where p.tenant_id = current_tenant_id() and p.person_id in (select current_social_friends())
        order by p.name_key, p.person_id
        """

    /// The requests the person sent or received, not answered yet, newest first: id, requested_at,
    /// whether it was made to them, then the other person's profile.
    static let requests = """
        select r.id, r.requested_at, r.addressee_id = current_person_id(), \(profileColumns)
        from social_friendships r
        join social_profiles p
          on p.tenant_id = r.tenant_id
         and p.person_id = case when r.requester_id = current_person_id() then r.addressee_id else r.requester_id end
        \(friendshipState)
        where r.tenant_id = current_tenant_id() and r.accepted_at is null
        order by r.requested_at desc, r.id
        """

    // MARK: Blocks

    /// Whether the person may block $1: someone whose profile they may read, or who is already
    /// blocked either way (so that blocking back tells nobody of the first block).
    static let mayBlock = """
        select exists (select from social_profiles p where p.tenant_id = current_tenant_id() and p.person_id = $1)
            or $1 in (select current_social_blocked())
        """

    /// The person blocks $1 (again: nothing changes).
    static let block = """
        insert into social_blocks (tenant_id, blocker_id, blocked_id) values (current_tenant_id(), current_person_id(), $1)
        on conflict do nothing
        """

    /// Lifts the person's block of $1; returns a row when there was one.
    static let unblock = """
        delete from social_blocks
        where tenant_id = current_tenant_id() and blocker_id = current_person_id() and blocked_id = $1
        returning blocked_id
        """

    /// The people the person blocked, newest first: id, when.
    static let blocked = """
        select blocked_id, created_at from social_blocks
        where tenant_id = current_tenant_id() and blocker_id = current_person_id()
        order by created_at desc, blocked_id
        """
}
