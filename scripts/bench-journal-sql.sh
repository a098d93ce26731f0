# The journal's SQL as JournalStore runs it, for pgbench: what bench-journal.sh and bench-load.sh
# measure in the database beside the same reads over HTTP. Source it; pgbench's variables are
# :person and :tenant (the young person's context), :q (a search) and :ids (set by the page).
context="BEGIN;
SELECT set_config('storykeep.person_id', :person, true), set_config('storykeep.role', 'YOUNG_PERSON', true), set_config('storykeep.tenant_id', :tenant, true), set_config('jit', 'off', true);"
columns="e.id, e.day, e.kind, e.body, e.mood, e.background, e.suggestion, e.created_at, e.updated_at, e.archived_at, (extract(epoch from e.created_at) * 1000000)::int8"
attach="SELECT et.entry_id, t.id, t.name FROM entry_tags et JOIN tags t ON t.tenant_id = et.tenant_id AND t.id = et.tag_id WHERE et.tenant_id = current_tenant_id() AND et.entry_id = any(:ids::uuid[]) ORDER BY t.name COLLATE \"und-x-icu\", t.id;
SELECT em.entry_id, m.id, m.content_type, m.byte_size, m.sha256, m.created_at FROM entry_media em JOIN media m ON m.tenant_id = em.tenant_id AND m.id = em.media_id WHERE em.tenant_id = current_tenant_id() AND em.entry_id = any(:ids::uuid[]) ORDER BY em.entry_id, em.position;
COMMIT;"
page() {  # the page's statement (JournalStore.entries), its ids kept for the tags and media
    printf '%s\nSELECT (array_agg(id))[1 : %s] AS ids FROM (SELECT %s FROM entries e WHERE e.tenant_id = current_tenant_id() AND e.author_id = current_person_id() AND e.archived_at IS NULL %s ORDER BY e.day DESC, e.created_at DESC, e.id DESC LIMIT %s) page \\gset\n%s\n' \
        "$context" "$1" "$columns" "$2" "$(($1 + 1))" "$attach"
}
