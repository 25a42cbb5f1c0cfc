/**
 * The child side of bench/lib/processes.ts: tell the bench which port the server listens on, and
 * never outlive the bench (the IPC channel closes when the parent ends, however it ends).
 */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';

export function announcePort(port: number): void {
  process.send?.({ port });
}

export function announceReady(server: Server): void {
  announcePort((server.address() as AddressInfo).port);
}

export function exitWithParent(): void {
  process.on('disconnect', () => process.exit(0));
}

/** Listening address of every bench server: loopback, a port the system picks. */
export const listenOn = { host: '127.0.0.1', port: 0 } as const;
