// The screen model's test helpers (the notation, the model's feed, every split, the
// transcripts) are the ScreenTestSupport target's, which the end-to-end and differential
// tiers use too; exported here to every file of this one.
@_exported import ScreenTestSupport
