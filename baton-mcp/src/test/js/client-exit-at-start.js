// An MCP server that cannot start: it says why on stderr and exits.
console.error('starting the test server');
console.error('cannot open the database at /nowhere/db');
process.exit(2);
