import PTYKit
import Testing

@Suite("OutputParser transcripts")
struct OutputParserTests {
    @Test(arguments: ModeTranscripts.privateModes)
    func decPrivateModes(_ transcript: Transcript) {
        check(transcript)
    }

    @Test(arguments: ModeTranscripts.keypadAndKeyboard)
    func keypadAndKeyboardProtocols(_ transcript: Transcript) {
        check(transcript)
    }

    @Test(arguments: ModeTranscripts.titles)
    func windowTitle(_ transcript: Transcript) {
        check(transcript)
    }

    @Test(arguments: ModeTranscripts.resets)
    func softAndFullReset(_ transcript: Transcript) {
        check(transcript)
    }

    @Test(arguments: ModeTranscripts.boundaries)
    func boundary(_ transcript: Transcript) {
        check(transcript)
    }

    @Test(arguments: ModeTranscripts.noC1)
    func eightBitBytesAreNotC1Controls(_ transcript: Transcript) {
        check(transcript)
    }

    private func check(_ transcript: Transcript, sourceLocation: SourceLocation = #_sourceLocation) {
        let parser = parseEverySplit(bytes(transcript.input), sourceLocation: sourceLocation)
        #expect(Observed(parser) == transcript.expected, sourceLocation: sourceLocation)
    }
}
