// The peer-address stamp lives in apps/web/peer-stamp.mjs, plain JavaScript that `pnpm start`
// loads with `--import` before Next opens its port (so no request arrives unstamped while the
// server starts); instrumentation-node.ts installs it through this module for a server started any
// other way. Route code reads the header named here.
export { installPeerAddressStamp, PEER_ADDRESS_HEADER } from "../../peer-stamp.mjs";
