// The system SQLite, imported as the module CSQLite: a peer the benchmark measures, nothing else.
#include <sqlite3.h>
