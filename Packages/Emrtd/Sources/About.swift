// The read: EmrtdReader, TravelDocument, verdicts, errors, events and the JSON contract.
