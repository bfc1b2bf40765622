// The provider conformance suite (C1.6, C1.7) against both providers.

import { localFixtures, memoryFixtures, providerConformance } from "../../testing.ts";

providerConformance("LocalFileSystem", localFixtures());
providerConformance("MemoryFileSystem", memoryFixtures());
