// The --require / --import entry (built in a later step).
export {};
