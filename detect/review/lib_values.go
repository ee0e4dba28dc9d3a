package review

// Values new on every run: UUIDs, ULIDs, nano ids, random numbers and the
// clock, per language. A key made from one is generated inside the body
// and differs on every retry.
func libValues() library {
	fresh := func(what, ref string, funcs ...string) api {
		return api{ref: ref, methods: funcs, kind: kindFresh, what: what}
	}
	const uuid, random, clock = "a fresh UUID", "a random value", "the current time"
	return library{
		name:   "Values new on every run",
		source: "Python uuid, secrets, random, os.urandom, time, datetime, python-ulid, nanoid, shortuuid, bson; Go github.com/google/uuid, gofrs/uuid, oklog/ulid, rs/xid, segmentio/ksuid, math/rand, crypto/rand, time; .NET System.Guid, System.Random, RandomNumberGenerator, System.DateTime, DateTimeOffset, Environment.TickCount, Stopwatch, MassTransit NewId",
		modules: map[Lang][]string{
			LangPython: {"uuid", "secrets", "random", "time", "datetime", "ulid", "uuid6", "uuid_utils", "shortuuid", "nanoid", "bson"},
			LangGo:     {"github.com/google/uuid", "github.com/gofrs/", "github.com/oklog/", "github.com/rs/"},
		},
		rows: []api{
			// Python.
			fresh(uuid, "uuid.", "uuid1", "uuid4", "uuid6", "uuid7"),
			fresh(uuid, "uuid6."),
			fresh(uuid, "uuid_utils.", "uuid4", "uuid7"),
			fresh(uuid, "shortuuid.", "uuid", "random"),
			fresh("a fresh ObjectId", "bson.", "ObjectId"),
			fresh("a fresh ULID", "ulid.", "new", "ULID", "from_timestamp"),
			fresh("a fresh nano id", "nanoid.", "generate"),
			fresh(random, "secrets."),
			fresh(random, "random."),
			fresh(random, "os.", "urandom"),
			fresh(clock, "time.", "time", "time_ns", "monotonic", "perf_counter"),
			fresh(clock, "datetime.", "now", "utcnow", "today"),
			// Go.
			fresh(uuid, "github.com/google/uuid.", "New", "NewString", "NewRandom", "NewV7", "NewUUID", "NewV6"),
			fresh(uuid, "github.com/gofrs/uuid*", "NewV1", "NewV4", "NewV6", "NewV7"),
			fresh(uuid, "github.com/satori/go.uuid.", "NewV1", "NewV4"),
			fresh("a fresh ULID", "github.com/oklog/ulid*"),
			fresh("a fresh id", "github.com/rs/xid.", "New"),
			fresh("a fresh id", "github.com/segmentio/ksuid.", "New", "NewRandom"),
			fresh("a fresh id", "github.com/teris-io/shortid.", "Generate"),
			fresh("a fresh nano id", "github.com/matoous/go-nanoid*"),
			fresh("a fresh nano id", "github.com/jaevor/go-nanoid*"),
			fresh(uuid, "github.com/lithammer/shortuuid*", "New"),
			fresh(random, "math/rand*"),
			fresh(random, "crypto/rand."),
			fresh(clock, "time.", "Now"),
			// .NET.
			fresh("a fresh GUID", "System.Guid.", "NewGuid", "CreateVersion7"),
			fresh("a fresh ULID", "System.Ulid.", "NewUlid"),
			fresh("a fresh id", "MassTransit.NewId."),
			fresh(random, "System.Random*"),
			fresh(random, "System.Security.Cryptography.RandomNumberGenerator."),
			fresh(clock, "System.DateTime.", "Now", "UtcNow", "Today"),
			fresh(clock, "System.DateTimeOffset.", "Now", "UtcNow"),
			fresh(clock, "System.Environment.", "TickCount", "TickCount64"),
			fresh(clock, "System.TimeProvider.System.", "GetUtcNow"),
			fresh(clock, "System.Diagnostics.Stopwatch.", "GetTimestamp"),
		},
	}
}
