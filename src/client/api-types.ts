// Written by scripts/client-types.mjs (`npm run client-types`) from GET /openapi.json; test/client-types.test.ts fails when it is stale.
/* eslint-disable */
export interface paths {
    "/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** This document (OpenAPI 3.1). */
        get: operations["openapi"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Whether the server is up, and its version. */
        get: operations["health"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sessions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The sessions this server hosts. */
        get: operations["listSessions"];
        put?: never;
        /** Start a session in a workspace, or continue a stored one (`resume`). */
        post: operations["createSession"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sessions/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One session. */
        get: operations["getSession"];
        put?: never;
        post?: never;
        /** Stop a session: its running turn is interrupted and its file closed (it stays stored and can be resumed). */
        delete: operations["deleteSession"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sessions/{id}/prompts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send a prompt: queued behind the running one, or steered into the running turn. */
        post: operations["prompt"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sessions/{id}/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The session's numbered events after `after` (or Last-Event-ID): a Server-Sent Events stream, or with Accept: application/json one page. */
        get: operations["events"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sessions/{id}/approvals/{requestId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Answer an approval request; the first answer from any client wins. */
        post: operations["answerApproval"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sessions/{id}/mode": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Change the session's permission mode at once (its running turn's next call is checked in it), as Shift+Tab in an attached terminal does. */
        post: operations["setMode"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sessions/{id}/interrupt": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Stop the running turn (recorded as interrupted); queued prompts stay queued. */
        post: operations["interrupt"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sessions/{id}/goal": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The session's goal: its condition, turns, cost and time so far, each cap and what is left, the last verdict with its evidence, and how it ended. */
        get: operations["getGoal"];
        put?: never;
        /** Set the session's goal: the agent works turn after turn until the judge, running read-only checks, says it holds, or a cap or no progress stops it. Its goal_start, goal_verdict and goal_end events follow on the stream. */
        post: operations["setGoal"];
        /** Clear the goal: a running one is stopped (its turn interrupted) and ends as cleared; an ended one stays as it ended. */
        delete: operations["clearGoal"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sessions/{id}/land": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Land a background session's worktree into its checkout, as `vibe-agent land ID --yes` does: its uncommitted work committed on its branch, the branch rebased onto the checkout's HEAD, the checks run (given, else configured; the project's own only once approved for the workspace in a terminal), then the whole change (or the files named) merged into the checkout's working tree, the uncommitted edits there kept, as one rewind point. A refusal applies nothing. */
        post: operations["land"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Every background session of this data folder (`vibe-agent --bg`), as `vibe-agent agents` lists them: state (working, needs you, done, failed, stopped), worktree, cost, last event, waiting approvals, goal and end-of-session report. One the server does not hold is reopened from its file. */
        get: operations["listAgents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One background session, as GET /v1/agents shows it. */
        get: operations["getAgent"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        CreateSession: {
            /** @description The folder the session works in (an absolute path on the server). */
            workspace: string;
            model?: string;
            provider?: string;
            /**
             * @description Default: ask. In ask mode a call that needs approval waits for a client to answer.
             * @enum {string}
             */
            permissionMode?: "ask" | "auto-edit" | "auto" | "plan" | "yolo";
            /** @description A stored session id of this workspace to continue. */
            resume?: string;
        };
        PlanScope: {
            files: string[];
            commands: string[];
        };
        Prompt: {
            text: string;
            /**
             * @description queue: run after what is running; steer: add to the running turn (it reaches the model with the next request).
             * @default queue
             * @enum {string}
             */
            mode: "queue" | "steer";
            /**
             * @description The session's permission mode from this prompt on (a terminal attached in plan mode sends plan: the prompt runs read-only and ends with a plan). Taken when the prompt is accepted, as a mode switch in a terminal is. Default: the mode the session is in.
             * @enum {string}
             */
            permissionMode?: "ask" | "auto-edit" | "auto" | "plan" | "yolo";
            /** @description With permissionMode: the approved plan's lists; a call outside them asks again, whatever the mode. */
            planScope?: components["schemas"]["PlanScope"];
        };
        ApprovalAnswer: {
            /** @enum {string} */
            decision: "allow" | "deny" | "always";
        };
        PendingApproval: {
            requestId: string;
            tool: string;
            summary: string;
            /** @description More to show: a unified diff for edits, the full command for shell. */
            detail?: string;
            always?: string;
        };
        Session: {
            id: string;
            workspace: string;
            /** @enum {string} */
            status: "idle" | "running" | "closed";
            /** @description The sequence number of the newest event. */
            lastSeq: number;
            /** @description Prompts waiting behind the running one. */
            queued: number;
            pendingApprovals: components["schemas"]["PendingApproval"][];
            /**
             * @description The permission mode the session's next prompt runs in (an attached terminal starts in it).
             * @enum {string}
             */
            permissionMode?: "ask" | "auto-edit" | "auto" | "plan" | "yolo";
            /** @description Set for a background session in a git worktree (vibe-agent --bg -w): POST …/land lands it into its checkout. */
            worktree?: {
                name: string;
                branch: string;
                path: string;
                /** @description The commit of its branch last landed whole. */
                landed?: string;
            };
        };
        Event: {
            seq: number;
            type: string;
            /** @description Set on a subagent's events: its path, e.g. "main/task-2". */
            agent?: string;
        } & {
            [key: string]: unknown;
        };
        EventPage: {
            events: components["schemas"]["Event"][];
            /** @description Pass as ?after= for the following page. */
            next: number;
            /** @description More events are stored after this page. */
            more: boolean;
        };
        Error: {
            error: string;
        };
        Health: {
            /** @constant */
            ok: true;
            version: string;
        };
        SessionList: {
            sessions: components["schemas"]["Session"][];
        };
        Accepted: {
            /** @constant */
            ok: true;
            lastSeq: number;
        };
        Interrupted: {
            interrupted: boolean;
        };
        ModeChange: {
            /**
             * @description The session's permission mode from now on, for its running turn too (as Shift+Tab in a terminal).
             * @enum {string}
             */
            permissionMode: "ask" | "auto-edit" | "auto" | "plan" | "yolo";
            /** @description An approved plan's lists; a call outside them asks again, whatever the mode. Without it, any earlier plan's bounds are dropped. */
            planScope?: components["schemas"]["PlanScope"];
        };
        Mode: {
            /** @enum {string} */
            permissionMode: "ask" | "auto-edit" | "auto" | "plan" | "yolo";
        };
        SetGoal: {
            /** @description What must hold, in words the judge checks ("npm test passes"). Omit it with continue: true. */
            condition?: string;
            /** @description The first turn's task, when it is more than the condition ("fix the date parser"); the condition is added to it. */
            prompt?: string;
            /**
             * @description Continue the session's unfinished goal (cancelled, or its server stopped) with its caps and what it had spent.
             * @constant
             */
            continue?: true;
            /** @description US dollars (list prices), agent, subagents and judge together. Default: the server's goalMaxCost ($5). */
            maxCost?: number;
            /** @description Input plus output tokens. Default: goalMaxTokens (2,000,000). */
            maxTokens?: number;
            /** @description Working turns. Default: goalMaxTurns (20). */
            maxTurns?: number;
            /** @description Wall time in minutes. Default: goalMaxTimeMs (60 minutes). */
            maxMinutes?: number;
        };
        GoalVerdict: {
            /** @description The goal_verdict event's number. */
            seq?: number;
            turn: number;
            judge: string;
            /**
             * @description What the judge said.
             * @enum {string}
             */
            status: "met" | "not_met";
            /** @description Whether it counts as met: "met" whose every cited item matches a check the judge ran. */
            accepted: boolean;
            reason: string;
            evidence: ({
                check: string;
                exit_code: number;
            } | {
                file: string;
                line: number;
                text: string;
            })[];
            /** @description The checks the judge ran, with their exit codes. */
            checks: {
                name: string;
                exit_code: number;
            }[];
        };
        Goal: {
            condition: string;
            /**
             * @description running: working or being judged here; unfinished: started, never ended, not running (POST continue: true resumes it); otherwise how it ended.
             * @enum {string}
             */
            status: "running" | "unfinished" | "met" | "cap" | "blocked" | "cleared" | "aborted";
            judge: string;
            /** @description The commands the judge may run, besides read:PATH. */
            checks: string[];
            stallTurns: number;
            caps: {
                maxCost: number;
                maxTokens: number;
                maxTurns: number;
                maxMs: number;
            };
            spent: {
                turns: number;
                tokens: number;
                cost: number;
                agentCost: number;
                judgeCost: number;
                elapsedMs: number;
            };
            /** @description What is left of each cap. */
            left: {
                turns: number;
                tokens: number;
                cost: number;
                ms: number;
            };
            lastVerdict?: components["schemas"]["GoalVerdict"];
            end?: {
                seq?: number;
                /** @enum {string} */
                outcome: "met" | "cap" | "blocked" | "cleared" | "aborted";
                reason: string;
                report: string;
            };
            /** @description The goal_start event's number. */
            startSeq?: number;
        };
        Land: {
            /** @description Run these commands in the worktree (sh -c), and no configured ones; a non-zero exit lands nothing. */
            checks?: string[];
            /** @description Run no checks. */
            noCheck?: boolean;
            /** @description Land only these files (paths in the repository), whole. Default: the whole change. */
            only?: string[];
        };
        LandResult: {
            /** @constant */
            outcome: "landed";
            files: {
                path: string;
                /** @enum {string} */
                action: "wrote" | "removed";
                /** @description Merged three ways with the uncommitted edits of the checkout. */
                merged: boolean;
            }[];
            /** @description Part of the change was left out (only): it stays on the branch. */
            partial: boolean;
            branch: string;
            /** @description The commit of the branch that was landed. */
            tip: string;
            /** @description The session that records the land: vibe-agent rewind in the checkout undoes it. */
            rewindSession: string;
            text: string;
        } | {
            /** @constant */
            outcome: "nothing";
            /** @description Why nothing was applied: the session changed nothing. */
            text: string;
        } | {
            /** @constant */
            outcome: "refused";
            reason: string;
            /** @description The reason again, as every error reply carries it. */
            error: string;
        } | {
            /** @constant */
            outcome: "check_failed";
            check: string;
            exitCode: number | null;
            signal: string | null;
            /** @description The last 64 KiB of its output (stdout and stderr as they came). */
            output: string;
            reason: string;
            error: string;
        };
        SessionReport: {
            /** @description How its last run ended (the stop reason). */
            outcome: string;
            /** @description Files changed against its base, committed or not; null counts for binary files. */
            files: {
                path: string;
                added: number | null;
                removed: number | null;
            }[];
            /** @description The shell commands it ran: an exit code, or why it did not run. */
            commands: {
                command: string;
                exit: number | null;
                note?: string;
            }[];
            /** @description What it did not do (nothing verified, denied calls). */
            notDone: string[];
            cost?: number;
            /** @description The commands that land or discard it. */
            next: string[];
        };
        Agent: {
            id: string;
            name: string;
            /** @enum {string} */
            state: "working" | "needs you" | "done" | "failed" | "stopped";
            workspace: string;
            /** @description The checkout `--bg` was run in (where a land applies). */
            repo: string;
            worktree?: string;
            branch?: string;
            base?: string;
            included?: string[];
            /** @description Dollars so far; absent when none is known. */
            cost?: number;
            lastEvent?: {
                seq: number;
                type: string;
                summary?: string;
            };
            pendingApprovals: components["schemas"]["PendingApproval"][];
            landed?: string;
            /** @description Why the server could not open it (it shows as stopped). */
            problem?: string;
            /** @description Once its run has ended: what it changed, ran and cost, and how to land it. */
            report?: components["schemas"]["SessionReport"];
            goal?: components["schemas"]["Goal"];
        };
        AgentList: {
            agents: components["schemas"]["Agent"][];
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    openapi: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The document. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
        };
    };
    health: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Up. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Health"];
                };
            };
        };
    };
    listSessions: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The sessions. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SessionList"];
                };
            };
            /** @description No valid bearer token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createSession: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateSession"];
            };
        };
        responses: {
            /** @description Started. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Session"];
                };
            };
            /** @description The request is malformed; nothing was done. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No valid bearer token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such session. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many sessions; retry after Retry-After seconds. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getSession: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The session. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Session"];
                };
            };
            /** @description No valid bearer token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such session. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteSession: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Stopped. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description No valid bearer token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such session. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    prompt: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["Prompt"];
            };
        };
        responses: {
            /** @description Accepted; its events follow on the stream. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Accepted"];
                };
            };
            /** @description The request is malformed; nothing was done. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No valid bearer token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such session. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A land of the session is under way (POST …/land); nothing was queued. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    events: {
        parameters: {
            query?: {
                /** @description Resume after this sequence number (default 0: from the start). */
                after?: number;
                /** @description With Accept: application/json, the most events in the page (default 500). */
                limit?: number;
            };
            header?: {
                /** @description Resume after this sequence number (an EventSource sends it when it reconnects). */
                "Last-Event-ID"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The events: `id:` is the sequence number, `data:` an Event. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EventPage"];
                    "text/event-stream": string;
                };
            };
            /** @description The request is malformed; nothing was done. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No valid bearer token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such session. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many streams open; retry after Retry-After seconds. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    answerApproval: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                requestId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ApprovalAnswer"];
            };
        };
        responses: {
            /** @description This answer decided the request. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Accepted"];
                };
            };
            /** @description The request is malformed; nothing was done. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No valid bearer token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such session. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Already answered by another client (or the turn ended). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    setMode: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ModeChange"];
            };
        };
        responses: {
            /** @description The mode the session is in now. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Mode"];
                };
            };
            /** @description The request is malformed; nothing was done. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No valid bearer token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such session. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The session has no permission mode to change. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    interrupt: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Whether a turn was running. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Interrupted"];
                };
            };
            /** @description No valid bearer token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such session. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getGoal: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The goal. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Goal"];
                };
            };
            /** @description No valid bearer token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such session, or it has no goal. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    setGoal: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SetGoal"];
            };
        };
        responses: {
            /** @description Started; its state now. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Goal"];
                };
            };
            /** @description The request is malformed; nothing was done. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No valid bearer token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such session, or it has no goal. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A goal already runs in this session (clear it first), or there is no unfinished goal to continue. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    clearGoal: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The goal as it stands after clearing. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Goal"];
                };
            };
            /** @description No valid bearer token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such session, or it has no goal. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    land: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["Land"];
            };
        };
        responses: {
            /** @description Landed (or nothing to land). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LandResult"];
                };
            };
            /** @description The request is malformed; nothing was done. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No valid bearer token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such session, or it is no background session. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Refused (the session is working, the project's checks are not approved, a conflict) or a check failed: nothing was applied. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LandResult"];
                };
            };
        };
    };
    listAgents: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The background sessions. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AgentList"];
                };
            };
            /** @description No valid bearer token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAgent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The background session. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Agent"];
                };
            };
            /** @description No valid bearer token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No background session with that id. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
}
