"""The Python peer of scripts/bench-requestpath.sh (issue 19): what a team would write in Python for
the same few fields of Storykeep's API, to measure Storykeep's request path against.

strawberry-graphql (its ASGI app) on uvicorn (uvloop, httptools), asyncpg with a pool, argon2-cffi:
  query    entries(first, after): a young person's journal page, each entry's tags and media
           (two DataLoaders), cursors signed as Storykeep signs them (tenants.cursor_key), so that
           the page answers exactly as Storykeep's does;
  query    me { id ... };
  mutation createEntry(input: {date, kind, text, mood, background, suggestion, tagIds, mediaIds}):
           the input check, the entry, the rewards it earns (Sources/Storykeep/Rewards), the entry
           read back with its tags and media;
  mutation login(username, password): Storykeep's login SQL, Argon2id verified by argon2-cffi,
           a session whose token works on Storykeep too (and Storykeep's on this).

It runs Storykeep's own SQL, statement for statement, in Storykeep's row-level security context:
it connects as storykeep_app (no BYPASSRLS), and each request is one transaction that starts with
the same transaction-local settings (set_config(..., true): the tenant, the AUTHENTICATION role
and the SHA-256 of the bearer token, jit off, statement_timeout) and authenticate_session()
(Migrations/0050), which switches it to the person. Statements go one at a time, as asyncpg sends
them (it prepares and caches each), with no pipelining; a request's DataLoaders share its one
connection, in turn. Nothing here bypasses a policy: what the database does not show this role
in that context, the peer does not see.

Processes: --workers uvicorn workers (bench-requestpath.sh gives one per core), each with an
asyncpg pool of --pool connections (default 8 / workers: Storykeep's pool is 8), and one Argon2
thread (Storykeep hashes on argon2.concurrentHashes = 2 threads in all). The workers share one
listening socket, forked from this process after it bound it.

  python3 scripts/bench-peer.py --port 18680 --workers 2 --database-url "$DATABASE_URL"

GET /health answers 200 once the tenants are read; GraphQL is POST /t/<slug>/graphql.
"""
import argparse, asyncio, base64, concurrent.futures, datetime, enum, hashlib, hmac, json, os, re, secrets, signal, socket
import sys, typing, uuid, zoneinfo

import argon2
import asyncpg
from swift_sql import statement
import strawberry
import uvicorn
from graphql import GraphQLError
from strawberry.asgi import GraphQL
from strawberry.dataloader import DataLoader
from strawberry.extensions import SchemaExtension

# ---------------------------------------------------------------------------------------------
# Storykeep's SQL, read from the Swift files that send it (scripts/swift_sql.py), so that the
# peer runs exactly Storykeep's statements

# PostgresConnection.begin(settings:): one set_config per setting, sorted by name.
SETTINGS = ("SELECT set_config($1, $2, true), set_config($3, $4, true), set_config($5, $6, true), set_config($7, $8, true), "
            "set_config($9, $10, true), set_config($11, $12, true), set_config($13, $14, true)")

J, A, R = "Storykeep/Journals/JournalStatements.swift", "Storykeep/Accounts/", "Storykeep/Rewards/EarningStatements.swift"
AUTHENTICATE = statement(A + "SessionStatements.swift", "authenticate")
ENTRIES_PAGE = statement(J, "entriesPage")
TAGS_OF_ENTRIES = statement("Storykeep/Tags/TagStatements.swift", "tagsOfEntries")
MEDIA_OF_ENTRIES = statement(J, "mediaOfEntries")
# checkInput's row, and the insert it holds back.
CREATE_ENTRY = statement(J, "createEntry")
REWARD_ENTRY_CREATED = statement(R, "entryCreated")
REWARD_AWARD = statement(R, "award")
NOTIFY = statement("Storykeep/Notifications/NotificationStatements.swift", "notify")
PERSON = statement(A + "PeopleStatements.swift", "person")
ACCOUNT = statement(A + "LoginStatements.swift", "account")
PERSON_FAILURES, NAME_FAILURES = (
    {kind: statement(A + "LoginStatements.swift", f"{subject}.{kind}") for kind in ("lock", "read", "record", "reset")}
    for subject in ("failuresOfPerson", "failuresOfName"))
ENTER = statement("Storykeep/Core/AccountContext.swift", "enterStatement")
START_SESSION = statement(A + "SessionStatements.swift", "start")
# $1 actor person, $2 actor client, $3 action, $4 subject person, $5 subject, $6 request id.
AUDIT = statement("Storykeep/Core/AuditTrail.swift", "insert")

# ---------------------------------------------------------------------------------------------
# Configuration: Config/storykeep.json's sessions and database, as Storykeep reads them

SLIDE_SECONDS = 60                     # Sessions.slideGranularitySeconds
IDLE_TIMEOUT_SECONDS = 86400           # sessions.idleTimeoutSeconds
EXPIRY_SECONDS = 1209600               # sessions.expirySeconds
STATEMENT_TIMEOUT_MS = "5000"          # database.statementTimeoutSeconds
# PostgresDate.earliest and .latest, PostgreSQL's first and last day, and EntryPosition.start
# (the last day and moment, the greatest id): Python's dates end in 9999, so the peer binds
# -infinity and infinity instead (asyncpg's date.min, date.max and datetime.max), which order
# the same against every entry.
DAY_EARLIEST, DAY_LATEST = datetime.date.min, datetime.date.max
START_POSITION = (datetime.date.max, datetime.datetime.max, uuid.UUID("ffffffff-ffff-ffff-ffff-ffffffffffff"))
EPOCH_2000 = datetime.datetime(2000, 1, 1, tzinfo=datetime.timezone.utc)
MAX_PAGE = 100


class Tenant:
    def __init__(self, tenant_id, slug, config, cursor_key):
        self.id, self.slug, self.key = tenant_id, slug, bytes(cursor_key)
        self.setting_id = str(tenant_id).upper()  # as Swift's uuidString
        file = json.loads(config)
        self.time_zone = zoneinfo.ZoneInfo(file.get("timeZone") or "UTC")
        lockout = file.get("lockout") or {}
        self.free_attempts = lockout.get("freeAttempts", 2)
        self.max_backoff = lockout.get("maxBackoffSeconds", 900)
        rewards = file.get("rewards") or {}
        self.rules = [r for r in rewards.get("rules", []) if r.get("on") == "entryCreated"]
        self.achievements = rewards.get("achievements", [])
        self.rewards_on = "rewards" in (file.get("modules") or [])


TENANTS = {}


# ---------------------------------------------------------------------------------------------
# The request's transaction

class Unauthenticated(GraphQLError):
    def __init__(self):
        super().__init__("Please log in.", extensions={"code": "UNAUTHENTICATED"})


class BadInput(GraphQLError):
    def __init__(self, field, message):
        super().__init__(f"{field}: {message}", extensions={"code": "BAD_USER_INPUT", "field": field})


def settings(tenant, person="", role="", login_name="", secret_hash=""):
    """The transaction-local settings of a context, sorted by name as Storykeep sends them."""
    values = {"jit": "off", "statement_timeout": STATEMENT_TIMEOUT_MS, "storykeep.login_name": login_name,
              "storykeep.person_id": person, "storykeep.role": role, "storykeep.secret_hash": secret_hash,
              "storykeep.tenant_id": tenant.setting_id}
    return [item for pair in sorted(values.items()) for item in pair]


class Context:
    """One request: its tenant, its bearer token, and the transaction it runs in (opened at the
    first statement, with the authentication; committed or rolled back when it ends)."""

    def __init__(self, pool, tenant, token):
        self.pool, self.tenant, self.token = pool, tenant, token
        self.connection = self.transaction = None
        self.viewer = None
        self.opened = False
        self.lock = asyncio.Lock()
        self.wrote = False
        self.tags = DataLoader(self.load_tags)
        self.media = DataLoader(self.load_media)

    async def begin(self):
        if self.opened:
            return self.viewer
        self.opened = True
        self.connection = await self.pool.acquire()
        self.transaction = self.connection.transaction()
        await self.transaction.start()
        token_hash = ""
        if self.token is not None:
            token_hash = hashlib.sha256(self.token.encode()).hexdigest()
        role = "AUTHENTICATION" if self.token is not None else ""
        await self.connection.fetchrow(SETTINGS, *settings(self.tenant, role=role, secret_hash=token_hash))
        if self.token is not None:
            row = await self.connection.fetchrow(AUTHENTICATE, SLIDE_SECONDS, IDLE_TIMEOUT_SECONDS)
            if row is not None and row[1] is not None:
                self.viewer = (row[1], row[2], row[0])
        return self.viewer

    async def require_viewer(self):
        viewer = await self.begin()
        if viewer is None:
            raise Unauthenticated()
        return viewer

    async def fetch(self, query, *values):
        async with self.lock:
            return await self.connection.fetch(query, *values)

    async def finish(self, ok):
        if self.connection is None:
            return
        try:
            if ok:
                await self.transaction.commit()
            else:
                await self.transaction.rollback()
        finally:
            await self.pool.release(self.connection)
            self.connection = None

    async def load_tags(self, entry_ids):
        rows = await self.fetch(TAGS_OF_ENTRIES, list(entry_ids))
        found = {}
        for row in rows:
            found.setdefault(row[0], []).append(Tag(id=strawberry.ID(str(row[1])), name=row[2]))
        return [found.get(i, []) for i in entry_ids]

    async def load_media(self, entry_ids):
        found = await media_of_entries(self, list(entry_ids))
        return [found.get(i, []) for i in entry_ids]


async def media_of_entries(context, entry_ids):
    found = {}
    for row in await context.fetch(MEDIA_OF_ENTRIES, entry_ids):
        found.setdefault(row[0], []).append(
            Media(id=strawberry.ID(str(row[1])), content_type=row[2], byte_size=row[3], sha256=row[4].hex(),
                  url=f"/t/{context.tenant.slug}/media/{row[1]}", created_at=date_time(row[5])))
    return found


class RequestTransaction(SchemaExtension):
    """Ends the request's transaction: COMMIT, or ROLLBACK when the answer has errors."""

    async def on_operation(self):
        yield
        result = self.execution_context.result
        await self.execution_context.context.finish(ok=result is not None and not result.errors)


# ---------------------------------------------------------------------------------------------
# The schema: the same names and shapes as Storykeep's (Schema/journals.graphql, tags.graphql,
# accounts.graphql), for these fields

Date = strawberry.scalar(typing.NewType("Date", str), name="Date", serialize=str, parse_value=str)
DateTime = strawberry.scalar(typing.NewType("DateTime", str), name="DateTime", serialize=str, parse_value=str)


def date_time(value):
    """DateTimeScalar: ISO 8601 in UTC with milliseconds."""
    value = value.astimezone(datetime.timezone.utc)
    return value.strftime("%Y-%m-%dT%H:%M:%S.") + f"{value.microsecond // 1000:03d}Z"


@strawberry.enum
class EntryKind(enum.Enum):
    TEXT = "TEXT"
    AUDIO = "AUDIO"
    VIDEO = "VIDEO"
    DRAWING = "DRAWING"
    IMAGE = "IMAGE"
    MOOD = "MOOD"


@strawberry.enum
class Role(enum.Enum):
    YOUNG_PERSON = "YOUNG_PERSON"
    CARER = "CARER"
    SOCIAL_WORKER = "SOCIAL_WORKER"
    AGENCY_ADMIN = "AGENCY_ADMIN"


@strawberry.type
class Tag:
    id: strawberry.ID
    name: str


@strawberry.type
class Media:
    id: strawberry.ID
    content_type: str
    byte_size: int
    sha256: str
    url: str
    created_at: DateTime


@strawberry.type
class Entry:
    id: strawberry.ID
    date: Date
    kind: EntryKind
    text: typing.Optional[str]
    mood: typing.Optional[str]
    background: typing.Optional[str]
    suggestion: typing.Optional[str]
    created_at: DateTime
    updated_at: DateTime
    entry_id: strawberry.Private[uuid.UUID]
    attached: strawberry.Private[typing.Optional[list]]

    @strawberry.field
    async def tags(self, info: strawberry.Info) -> typing.List[Tag]:
        return await info.context.tags.load(self.entry_id)

    @strawberry.field
    async def media(self, info: strawberry.Info) -> typing.List[Media]:
        # As Storykeep's Entry.media: the files read with the entry, or, when none were, the
        # round's loader.
        if self.attached:
            return self.attached
        return await info.context.media.load(self.entry_id)


def entry_of(row, attached=None):
    return Entry(id=strawberry.ID(str(row[0])), date=row[1].isoformat(), kind=EntryKind(row[2]), text=row[3], mood=row[4],
                 background=row[5], suggestion=row[6], created_at=date_time(row[7]), updated_at=date_time(row[8]),
                 entry_id=row[0], attached=attached)


@strawberry.type
class EntryEdge:
    cursor: str
    node: Entry


@strawberry.type
class PageInfo:
    has_next_page: bool
    end_cursor: typing.Optional[str]


@strawberry.type
class EntryConnection:
    edges: typing.List[EntryEdge]
    page_info: PageInfo


@strawberry.type
class Person:
    id: strawberry.ID
    role: Role
    display_name: str
    username: typing.Optional[str]
    email: typing.Optional[str]
    created_at: DateTime


def person_of(row):
    return Person(id=strawberry.ID(str(row[0])), role=Role(row[1]), display_name=row[2], username=row[3], email=row[4],
                  created_at=date_time(row[9]))


@strawberry.type
class LoginPayload:
    token: str
    expires_at: DateTime
    person: Person


@strawberry.input
class EntryInput:
    date: Date
    kind: EntryKind
    text: typing.Optional[str] = None
    mood: typing.Optional[str] = None
    background: typing.Optional[str] = None
    suggestion: typing.Optional[str] = None
    media_ids: typing.Optional[typing.List[strawberry.ID]] = strawberry.field(default_factory=list)
    tag_ids: typing.Optional[typing.List[strawberry.ID]] = strawberry.field(default_factory=list)


# Cursors (Sources/Storykeep/Core/Cursor.swift): `entries|<day>|<created_at>|<id>`, days and
# microseconds since 2000-01-01, then the first 16 bytes of its HMAC-SHA-256 under the tenant's
# key, in unpadded base64url.

def cursor(tenant, day, created_at, entry_id):
    days = (day - datetime.date(2000, 1, 1)).days
    delta = created_at - EPOCH_2000
    micros = (delta.days * 86400 + delta.seconds) * 1_000_000 + delta.microseconds
    payload = f"entries|{days}|{micros}|{entry_id}".encode()
    mac = hmac.new(tenant.key, payload, hashlib.sha256).digest()[:16]
    return base64.urlsafe_b64encode(payload + mac).rstrip(b"=").decode()


def position_after(tenant, text):
    refusal = BadInput("after", "that is not a cursor of this list. Ask for the first page again.")
    try:
        raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except ValueError:
        raise refusal
    payload, mac = raw[:-16], raw[-16:]
    if len(raw) <= 16 or not hmac.compare_digest(mac, hmac.new(tenant.key, payload, hashlib.sha256).digest()[:16]):
        raise refusal
    parts = payload.decode().split("|")
    if len(parts) != 4 or parts[0] != "entries":
        raise refusal
    day = datetime.date(2000, 1, 1) + datetime.timedelta(days=int(parts[1]))
    created_at = EPOCH_2000 + datetime.timedelta(microseconds=int(parts[2]))
    return day, created_at, uuid.UUID(parts[3])


@strawberry.type
class Query:
    @strawberry.field
    async def entries(self, info: strawberry.Info, first: typing.Optional[int] = 20,
                      after: typing.Optional[str] = None) -> EntryConnection:
        context = info.context
        first = 20 if first is None else first
        position = position_after(context.tenant, after) if after is not None else START_POSITION
        await context.require_viewer()
        if not 0 <= first <= MAX_PAGE:
            raise BadInput("first", f"must be 0 to {MAX_PAGE}")
        rows = await context.fetch(ENTRIES_PAGE, position[0], position[1], position[2], DAY_EARLIEST, DAY_LATEST,
                                   None, None, None, first + 1)
        edges = [EntryEdge(cursor=cursor(context.tenant, row[1], row[7], row[0]), node=entry_of(row)) for row in rows[:first]]
        return EntryConnection(edges=edges, page_info=PageInfo(has_next_page=len(rows) > first,
                                                               end_cursor=edges[-1].cursor if edges else None))

    @strawberry.field
    async def me(self, info: strawberry.Info) -> typing.Optional[Person]:
        context = info.context
        if context.token is None:
            return None
        person, _, _ = await context.require_viewer()
        rows = await context.fetch(PERSON, person)
        return person_of(rows[0]) if rows else None


def uuids(values, field):
    found = []
    for value in values or []:
        try:
            found.append(uuid.UUID(str(value)))
        except ValueError:
            raise BadInput(field, f"no such id {value}")
    return list(dict.fromkeys(found))  # as Storykeep's uniqued()


@strawberry.type
class Mutation:
    @strawberry.mutation
    async def create_entry(self, info: strawberry.Info, input: EntryInput) -> Entry:
        context = info.context
        person, role, _ = await context.require_viewer()
        day = datetime.date.fromisoformat(input.date)
        for field, value, limit in (("text", input.text, 20000), ("mood", input.mood, 50), ("background", input.background, 100),
                                    ("suggestion", input.suggestion, 500)):
            if value is not None and len(value) > limit:
                raise BadInput(f"input.{field}", f"must have at most {limit} characters")
        if input.kind == EntryKind.MOOD and input.mood is None:
            raise BadInput("input.mood", "a MOOD entry needs a mood")
        tag_ids, media_ids = uuids(input.tag_ids, "input.tagIds"), uuids(input.media_ids, "input.mediaIds")
        row = (await context.fetch(CREATE_ENTRY, tag_ids, media_ids, None, input.kind.value, day, input.text, input.mood,
                                   input.background, input.suggestion))[0]
        values = tuple(row)
        check, row = values[:5], values[5:]
        if check[1]:
            raise BadInput("input.tagIds", f"no tag of yours has the id {check[1][0]}")
        if check[2]:
            raise BadInput("input.mediaIds", f"no file of yours has the id {check[2][0]}")
        if check[3]:
            raise BadInput("input.mediaIds", f"the file {check[3][0]} belongs to another entry")
        if check[4]:
            raise BadInput("input.date", "that day already has a mood check-in; check in again to change it")
        entry_id = row[0]
        # JournalStore.createEntry reads the files of an entry that has some, then the mutation
        # publishes EntryCreated, whose handler pays the rewards.
        media = await media_of_entries(context, [entry_id]) if media_ids else {}
        await earn(context, person, role, entry_id, input.kind.value)
        return entry_of(row, attached=media.get(entry_id, []))

    @strawberry.mutation
    async def login(self, info: strawberry.Info, username: str, password: str) -> LoginPayload:
        return await log_in(info.context, username, password)


async def earn(context, person, role, entry_id, kind):
    """RewardsModule's EntryCreated handler (Earning.entryCreated), for a young person."""
    tenant = context.tenant
    if not tenant.rewards_on or role != "YOUNG_PERSON":
        return
    today = datetime.datetime.now(tenant.time_zone).date()
    tag_achievements = [a for a in tenant.achievements if "distinctTags" in a.get("condition", {})]
    row = (await context.fetch(REWARD_ENTRY_CREATED, today, entry_id, kind, [r["id"] for r in tenant.rules],
                               [r["stars"] for r in tenant.rules], [r.get("dailyLimit") for r in tenant.rules],
                               bool(tag_achievements)))[0]
    entries, of_kind, earned, tags = row[1] or 0, row[2] or 0, set(row[3] or []), row[4] or 0
    due = []
    for achievement in tenant.achievements:
        if achievement["id"] in earned:
            continue
        condition = achievement.get("condition", {})
        if "entries" in condition:
            wanted = condition.get("kind")
            count = entries if wanted is None else of_kind if wanted.upper() == kind else 0
            if count >= condition["entries"]:
                due.append(achievement)
        elif "distinctTags" in condition and tags >= condition["distinctTags"]:
            due.append(achievement)
    if not due:
        return
    rows = await context.fetch(REWARD_AWARD, today, [a["id"] for a in due], [a["name"] for a in due],
                               [a["description"] for a in due], [a["icon"] for a in due], [a.get("stars", 0) for a in due],
                               [None] * len(due))
    for row in rows:
        achievement = next(a for a in due if a["id"] == row[0])
        bonus = "" if not row[1] else f" (+{row[1]} {'star' if row[1] == 1 else 'stars'})"
        await context.fetch(NOTIFY, [person], "achievementEarned", f"{achievement['icon']} You earned {achievement['name']}{bonus}",
                            None, None)


# ---------------------------------------------------------------------------------------------
# Login (Sources/Storykeep/Accounts/Login.swift): a short transaction in the LOGIN context, the
# hash on a thread holding no connection, another short transaction that starts the session.

HASHER = argon2.PasswordHasher(time_cost=2, memory_cost=19456, parallelism=1, hash_len=32, salt_len=16)
HASHING = concurrent.futures.ThreadPoolExecutor(max_workers=1)
WRONG = "That username or password is not right."


def check_password(stored, password):
    try:
        return HASHER.verify(stored, password)
    except argon2.exceptions.VerifyMismatchError:
        return False


async def log_in(context, username, password):
    tenant, pool = context.tenant, context.pool
    name = username.strip()
    if not name:
        raise BadInput("username", "Please enter your username or email.")
    now = datetime.datetime.now(datetime.timezone.utc)
    async with pool.acquire() as connection:
        async with connection.transaction():
            await connection.fetchrow(SETTINGS, *settings(tenant, role="LOGIN", login_name=name))
            account = await connection.fetchrow(ACCOUNT)
            statements, values = (PERSON_FAILURES, [account[0]]) if account else (NAME_FAILURES, [])
            await connection.fetchrow(statements["lock"], *values)
            failures, last_failure_at, _ = await connection.fetchrow(statements["read"], *values)
            backoff = min(1 << (failures - tenant.free_attempts), tenant.max_backoff) if failures > tenant.free_attempts else 0
            if backoff and last_failure_at and (last_failure_at + datetime.timedelta(seconds=backoff) - now).total_seconds() > 0:
                raise GraphQLError("Too many attempts: wait a moment.", extensions={"code": "LOCKED_OUT"})
            await connection.fetchrow(statements["record"], now, *values)
    stored = account[3] if account else None
    loop = asyncio.get_running_loop()
    if stored is None:
        await loop.run_in_executor(HASHING, HASHER.hash, password)
        raise GraphQLError(WRONG, extensions={"code": "UNAUTHENTICATED"})
    if not await loop.run_in_executor(HASHING, check_password, stored, password) or account[2]:
        raise GraphQLError(WRONG, extensions={"code": "UNAUTHENTICATED"})
    person, role = account[0], account[1]
    async with pool.acquire() as connection:
        async with connection.transaction():
            await connection.fetchrow(SETTINGS, *settings(tenant, person=str(person).upper(), role=role))
            await connection.execute(PERSON_FAILURES["reset"], person)
            token = base64.urlsafe_b64encode(secrets.token_bytes(32)).rstrip(b"=").decode()
            expires_at = (await connection.fetchrow(START_SESSION, person, hashlib.sha256(token.encode()).digest(),
                                                    IDLE_TIMEOUT_SECONDS, EXPIRY_SECONDS))[0]
            row = await connection.fetchrow(PERSON, person)
            # LoggedIn, whose handler (the audit module's) records it with the request's id.
            await connection.execute(AUDIT, person, None, "login.succeeded", person, None, secrets.token_hex(16))
    return LoginPayload(token=token, expires_at=date_time(expires_at), person=person_of(row))


# ---------------------------------------------------------------------------------------------
# Serving

schema = strawberry.Schema(query=Query, mutation=Mutation, extensions=[RequestTransaction])
POOL = None


class App(GraphQL):
    async def get_context(self, request, response):
        slug = request.scope["path"].split("/")[2]
        tenant = TENANTS.get(slug)
        header = request.headers.get("authorization", "")
        token = None
        if header.lower().startswith("bearer "):
            presented = header[7:].strip()
            # SessionToken(presented:): 43 characters of URL-safe base64, else no session.
            if re.fullmatch(r"[A-Za-z0-9_-]{43}", presented):
                token = presented
            else:
                token = "invalid"
        return Context(POOL, tenant, token)


graphql_app = App(schema, graphql_ide=None, allow_queries_via_get=False)


async def app(scope, receive, send):
    if scope["type"] == "lifespan":
        await lifespan(receive, send)
        return
    path = scope.get("path", "")
    parts = path.split("/")
    if scope["type"] == "http" and path == "/health":
        await send({"type": "http.response.start", "status": 200 if POOL else 503, "headers": [(b"content-type", b"text/plain")]})
        await send({"type": "http.response.body", "body": b"ok"})
        return
    if scope["type"] == "http" and len(parts) == 4 and parts[1] == "t" and parts[3] == "graphql" and parts[2] in TENANTS:
        await graphql_app(scope, receive, send)
        return
    await send({"type": "http.response.start", "status": 404, "headers": [(b"content-type", b"text/plain")]})
    await send({"type": "http.response.body", "body": b"no such tenant"})


async def keep(connection):
    pass


async def lifespan(receive, send):
    global POOL
    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            # Nothing to reset when a connection goes back: every setting is transaction-local,
            # as Storykeep's (asyncpg's default reset is a round trip of four more statements).
            pool = await asyncpg.create_pool(OPTIONS.database_url, min_size=OPTIONS.pool, max_size=OPTIONS.pool, reset=keep)
            async with pool.acquire() as connection:
                for row in await connection.fetch("select tenant_id, slug, config::text, cursor_key from tenants where enabled"):
                    TENANTS[row[1]] = Tenant(row[0], row[1], row[2], row[3])
            POOL = pool
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            if POOL:
                await POOL.close()
            await send({"type": "lifespan.shutdown.complete"})
            return


def main():
    global OPTIONS
    parser = argparse.ArgumentParser(description="The Python peer of bench-requestpath.sh")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--pool", type=int, default=0, help="connections per worker (default 8 / workers)")
    parser.add_argument("--database-url", default=os.environ.get("DATABASE_URL"))
    OPTIONS = parser.parse_args()
    OPTIONS.pool = OPTIONS.pool or max(1, 8 // OPTIONS.workers)
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", OPTIONS.port))
    listener.listen(1024)
    listener.set_inheritable(True)
    children = []
    for _ in range(OPTIONS.workers):
        pid = os.fork()
        if pid == 0:
            config = uvicorn.Config(app, loop="uvloop", http="httptools", lifespan="on", log_level="warning", access_log=False)
            uvicorn.Server(config).run(sockets=[listener])
            os._exit(0)
        children.append(pid)

    def stop(*_):
        for child in children:
            try:
                os.kill(child, signal.SIGTERM)
            except ProcessLookupError:
                pass

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    for child in children:
        while True:
            try:
                os.waitpid(child, 0)
                break
            except ChildProcessError:
                break
            except InterruptedError:
                continue


if __name__ == "__main__":
    main()
