// GNU libmicrohttpd (Debian: libmicrohttpd-dev), imported as the module CMicroHTTPD.
//
// MHD_start_daemon and MHD_get_daemon_info are variadic, which Swift cannot call: these wrappers
// pass the options the service sets and read the two daemon facts it needs.
#include <stdint.h>
#include <string.h>
#include <strings.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <microhttpd.h>

// What the URI log callback returns becomes the request's context (its `con_cls`).
typedef void *(*calldir_mhd_uri_callback)(void *context, const char *uri, struct MHD_Connection *connection);

// Starts a daemon on `address` (NULL: every address) with its bounds and callbacks, all given the
// same `context`; NULL when it cannot start. A pool of one thread means the polling thread alone.
static inline struct MHD_Daemon *calldir_mhd_start(
    unsigned int flags, const struct sockaddr *address, unsigned int thread_pool_size, unsigned int connection_limit,
    unsigned int connection_timeout, size_t connection_memory_limit, MHD_AccessHandlerCallback handler,
    MHD_RequestCompletedCallback completed, calldir_mhd_uri_callback uri, void *context) {
  return MHD_start_daemon(
      flags, 0, NULL, NULL, handler, context,
      MHD_OPTION_SOCK_ADDR, address,
      MHD_OPTION_THREAD_POOL_SIZE, thread_pool_size > 1 ? thread_pool_size : 0,
      MHD_OPTION_CONNECTION_LIMIT, connection_limit,
      MHD_OPTION_CONNECTION_TIMEOUT, connection_timeout,
      MHD_OPTION_CONNECTION_MEMORY_LIMIT, connection_memory_limit,
      MHD_OPTION_NOTIFY_COMPLETED, completed, context,
      MHD_OPTION_URI_LOG_CALLBACK, uri, context,
      MHD_OPTION_END);
}

// Keeps the library from parsing the query of the target `uri` into arguments; call it from the
// URI log callback, after the target is copied. The service reads the query itself, and up to
// 0.9.75 the library stores each argument in the connection's memory pool and, when the pool runs
// out, sends no answer at all: a target with a few hundred arguments held its connection until the
// idle timeout. Those versions find the query before the callback and parse it after, from the
// request line in the connection's own (writable) buffer, so ending the query at its first byte
// leaves nothing to parse. Later versions answer an exhausted pool themselves and are left alone.
static inline void calldir_mhd_leave_query_unparsed(const char *uri) {
#if MHD_VERSION <= 0x00097500
  char *query = uri == NULL ? NULL : strchr((char *)uri, '?');
  if (query != NULL) query[1] = '\0';
#else
  (void)uri;
#endif
}

// Counts the header lines named `name` (any case): `cls` is a calldir_mhd_name_count.
typedef struct {
  const char *name;
  unsigned int count;
} calldir_mhd_name_count;

static enum MHD_Result calldir_mhd_count_name(void *cls, enum MHD_ValueKind kind, const char *key, const char *value) {
  (void)kind;
  (void)value;
  calldir_mhd_name_count *counted = (calldir_mhd_name_count *)cls;
  if (key != NULL && strcasecmp(key, counted->name) == 0) counted->count++;
  return MHD_YES;
}

// How many header lines of the request on `connection` are named `name` (any case):
// MHD_lookup_connection_value gives only the first.
static inline unsigned int calldir_mhd_header_count(struct MHD_Connection *connection, const char *name) {
  calldir_mhd_name_count counted = {name, 0};
  MHD_get_connection_values(connection, MHD_HEADER_KIND, calldir_mhd_count_name, &counted);
  return counted.count;
}

// The port the daemon listens on (the one the system chose when 0 was asked), or 0.
static inline uint16_t calldir_mhd_bound_port(struct MHD_Daemon *daemon) {
  const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
  return info == NULL ? 0 : info->port;
}

// The connections the daemon holds open now.
static inline unsigned int calldir_mhd_connection_count(struct MHD_Daemon *daemon) {
  const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_CURRENT_CONNECTIONS);
  return info == NULL ? 0 : info->num_connections;
}
