// How much of a message the engine reads: all of it, up to the chat API's message limit
// (MAX_MESSAGE_CHARS in @solserver/contracts, which the engine does not import: pure core).
export const MAX_MESSAGE_CHARS_READ = 8000;
