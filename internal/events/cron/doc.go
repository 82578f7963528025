// Package cron owns mom's cron schedules: it parses 5-field cron expressions
// ("minute hour day-of-month month day-of-week") bound to an IANA time zone and
// computes their fire times. It does not run timers; callers ask Next for the
// following fire time and arm their own timer.
//
// Fire times follow croner's rules (the JS library the original mom used),
// including its daylight-saving behaviour. A schedule with exactly one minute
// value and exactly one hour value is a "fixed-time" job; any other schedule
// is an "interval" job.
//
//   - Spring-forward gap (wall times that do not exist): a fixed-time job
//     whose time falls in the gap fires once, at the instant the gap ends;
//     an interval job skips the missing times.
//   - Fall-back overlap (wall times that happen twice): a fixed-time job fires
//     once, at the first occurrence; an interval job fires at every real
//     instant that matches, in both occurrences.
//
// When both day-of-month and day-of-week are restricted (neither is * or ?),
// a day matches if either matches, as in Vixie cron and croner's legacy mode.
package cron
