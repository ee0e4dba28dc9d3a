package review

import (
	"regexp"
	"strings"
)

// ORMs: SQLAlchemy's session, Django's managers, GORM and EF Core. An add
// or create with no key of its own is an INSERT; get_or_create, an
// upsert or an ON CONFLICT clause refuses the duplicate; EF Core's
// ExecuteUpdate with SetProperty(x => x.N + …) counts twice. A commit or
// SaveChanges persists what the body changed in memory (obj.total += n,
// then commit: an increment).
func libORM() library {
	const row = "writes a second row"
	return library{
		name:   "ORMs",
		source: "sqlalchemy/sqlalchemy 2.0 (orm/session.py: add, merge, commit), django/django (db/models/query.py: create, get_or_create), go-gorm/gorm (finisher_api.go: Create, FirstOrCreate; clause.OnConflict), dotnet/efcore (DbSet.Add, ExecuteUpdate, SaveChanges)",
		modules: map[Lang][]string{
			LangGo: {"gorm.io/"},
		},
		rows: []api{
			// EF Core.
			{lang: LangCSharp, methods: []string{"Add", "AddAsync", "AddRange", "AddRangeAsync"}, when: func(c *libCall) bool { return isDbSet(c.recv) && !localCollection(c) },
				kind: effInsert, what: "{recvText}.{m} (EF Core insert)", twice: row},
			{lang: LangCSharp, methods: []string{"ExecuteUpdate", "ExecuteUpdateAsync"}, when: func(c *libCall) bool { return efIncrement.MatchString(c.Text) },
				kind: effIncrement, what: "{m} (SetProperty x => x.n + …)", twice: "counts twice"},
			// Every language.
			{methods: []string{"get_or_create", "update_or_create", "FirstOrCreate", "Upsert", "upsert"}, kind: effGuard, what: "{m}", refuses: "the store finds the row the first run wrote"},
			{methods: []string{"merge"}, recv: []string{"session"}, kind: effGuard, what: "{m}", refuses: "merge finds the row the first run wrote by its primary key"},
			{methods: []string{"add", "add_all"}, hasRecv: true, when: func(c *libCall) bool { return textHas(c.recv, "session") || recvName(c.recv) == "db" },
				kind: effInsert, what: "{recv}.{m} (ORM insert)", twice: row},
			{methods: []string{"create", "bulk_create"}, hasRecv: true, when: func(c *libCall) bool { return strings.HasSuffix(c.recv.Text, "objects") },
				kind: effInsert, what: "{recvText}.{m} (ORM insert)", twice: row},
			{methods: []string{"Create"}, recv: []string{"db", "gorm", "tx"}, when: func(c *libCall) bool { return anyCall(c.Expr, "Clauses") && mentions(c.Expr, "OnConflict") },
				kind: effGuard, what: "Create with clause.OnConflict", refuses: "the ON CONFLICT clause refuses the second row"},
			{methods: []string{"Create"}, recv: []string{"db", "gorm", "tx"}, kind: effInsert, what: "{recv}.Create (ORM insert)", twice: row},

			// Persisting what changed in memory.
			{methods: []string{"commit", "Commit", "save", "Save", "Updates", "flush", "SaveChanges", "SaveChangesAsync", "put", "Put"}, hasRecv: true, kind: kindPersist},
			{methods: []string{"SaveChanges", "SaveChangesAsync", "rollback", "Rollback", "commit", "Commit", "Begin", "BeginTx", "begin", "flush", "Flush"}, kind: kindNeutral},
		},
	}
}

// efIncrement is EF Core's SetProperty(x => x.N, x => x.N + …).
var efIncrement = regexp.MustCompile(`SetProperty\(\s*(\w+)\s*=>\s*\w+\.(\w+)\s*,\s*(\w+)\s*=>\s*\w+\.(\w+)\s*[+-]`)

// isDbSet reports whether a receiver is an EF Core DbSet or DbContext:
// db.Orders, _context.Payments, db, context.Set<T>().
func isDbSet(recv *Expr) bool {
	if recv == nil {
		return false
	}
	dbName := func(e *Expr) bool {
		if e == nil {
			return false
		}
		n := strings.ToLower(e.Name)
		if e.Kind == ExprIdent && e.Name == "this" {
			return false
		}
		return (strings.Contains(n, "db") || strings.HasSuffix(n, "context")) && !strings.Contains(n, "http")
	}
	switch recv.Kind {
	case ExprAttr:
		return dbName(recv.X)
	case ExprIdent:
		return dbName(recv)
	case ExprCall:
		return recv.Name == "Set" && dbName(recv.Receiver())
	}
	return false
}

// localCollection reports whether a receiver is a variable the body made
// as an in-memory collection (List<string> dbs = [] or new List<…>()),
// whatever its name says.
func localCollection(c *libCall) bool {
	if c.recv == nil || c.recv.Kind != ExprIdent || c.values == nil {
		return false
	}
	v := c.values(c.recv.Name)
	if v == nil {
		return false
	}
	return v.Kind == ExprComposite || strings.HasPrefix(v.Text, "[") || v.Kind == ExprCall && v.Op == "new" && (strings.HasPrefix(v.Name, "List") || strings.HasPrefix(v.Name, "HashSet") || strings.HasPrefix(v.Name, "Dictionary"))
}
