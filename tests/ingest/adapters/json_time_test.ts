import { equal } from "node:assert/strict";
import { parseJsonTime } from "../../../ingest/adapters/_json_time.ts";

Deno.test("JSON timestamps: every form of FORMATS §13 a JSON API uses, read as UTC epoch ms", () => {
  const cases: [string | number, number | null][] = [
    ["2026-10-07T21:44:41.466Z", Date.UTC(2026, 9, 7, 21, 44, 41, 466)],
    ["2026-09-29T18:24:17Z", Date.UTC(2026, 8, 29, 18, 24, 17)],
    ["2019-02-20T12:00:19.418-06:00", Date.UTC(2019, 1, 20, 18, 0, 19, 418)],
    ["2025-03-11T00:52:20-07:00", Date.UTC(2025, 2, 11, 7, 52, 20)],
    ["2022-06-16T08:11:00+00:00", Date.UTC(2022, 5, 16, 8, 11)],
    ["2022-06-16T08:11:00.123456+0530", Date.UTC(2022, 5, 16, 2, 41, 0, 123)],
    [
      "Sat Jun 11 2022 18:55:50 GMT+0000 (Coordinated Universal Time)",
      Date.UTC(2022, 5, 11, 18, 55, 50),
    ],
    ["Sat Jun 11 2022 20:55:50 GMT+0200", Date.UTC(2022, 5, 11, 18, 55, 50)],
    ["1624564393", 1624564393000],
    ["2017-01-06 02:27:32", Date.UTC(2017, 0, 6, 2, 27, 32)],
    [1420029799, 1420029799000],
    [1420029799123, 1420029799123],
    ["2023-07-11", Date.UTC(2023, 6, 11)],
    // Not timestamps, or impossible ones:
    ["yesterday", null],
    ["2026-13-01T00:00:00Z", null],
    ["2026-02-30 00:00:00", null],
    ["2026-01-01T00:00:00", null],
    ["Mon, 12 Nov 2018 16:25:40 Z", null],
    [-5, null],
    ["", null],
  ];
  for (const [input, expected] of cases) equal(parseJsonTime(input), expected, String(input));
});
