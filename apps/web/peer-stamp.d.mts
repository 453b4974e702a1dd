/** The header that carries the socket's address to the route handlers (peer-stamp.mjs). */
export declare const PEER_ADDRESS_HEADER = "x-solserver-peer-address";
/** Installs the peer-address stamp once per process (peer-stamp.mjs). */
export declare function installPeerAddressStamp(): void;
