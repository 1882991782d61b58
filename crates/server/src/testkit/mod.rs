//! What the server's tests and the CLI's share (behind the `testkit` feature, for
//! dev-dependencies): calls to a server on a socket, and skipping a test whose outside part
//! is missing.
pub mod remote;
pub mod skip;
