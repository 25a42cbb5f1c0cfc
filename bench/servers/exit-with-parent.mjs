// Preloaded (`node --import`) into a server the bench runs as production does (`node dist/main.js`):
// the IPC channel closes when the bench ends, however it ends, and the server must not outlive it.
process.on('disconnect', () => process.exit(0));
