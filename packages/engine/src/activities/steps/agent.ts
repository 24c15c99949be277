import type { ExecuteStepInput } from '../../run-types.js';
import { ToolInputError } from '../../steps/tools.js';
import type { ModelEntry } from '@atelier/domain';
import { withFallbacks } from './fallbacks.js';
import { type ExecutorDeps, StepFailure, type StepExecution, completeText, invalid, stepPrompt, toolContext } from './shared.js';

export interface AgentTurn {
  turn: number;
  action: 'call_tool' | 'finish';
  tool?: string;
  arguments?: Record<string, unknown>;
  result?: unknown;
  answer?: string;
  costUsd: number;
  durationMs: number;
}

/** The JSON every agent turn must answer with; `x-atelier-agent` lets the local model follow its policy. */
function turnSchema(tools: string[]): Record<string, unknown> {
  return {
    type: 'object',
    'x-atelier-agent': true,
    required: ['action'],
    properties: {
      action: { enum: ['call_tool', 'finish'] },
      tool: { enum: tools },
      arguments: { type: 'object' },
      answer: { type: 'string' },
    },
  };
}

function transcript(turns: AgentTurn[]): string {
  if (turns.length === 0) return '(no tool calls yet)';
  return turns
    .map((t) => `Turn ${t.turn}: called ${t.tool} with ${JSON.stringify(t.arguments ?? {})} -> ${JSON.stringify(t.result)}`)
    .join('\n');
}

/**
 * An `agent` step: a tool-using loop. Each turn the bound model either calls one of the step's tools or
 * finishes with an answer; every turn is recorded with its cost and duration. A model that has not
 * finished within `maxTurns` fails the step (`agent_turn_limit`), keeping the cost of the turns made.
 */
export async function runAgent(input: ExecuteStepInput, deps: ExecutorDeps, signal: AbortSignal): Promise<StepExecution> {
  // A model that becomes unavailable mid-loop hands the whole task to the next one, from its first turn.
  const { result, fallbacks, skippedCostUsd } = await withFallbacks(input, input.step.role, deps, signal, (model, scoped) =>
    agentLoop(input, model, scoped, signal),
  );
  return { ...result, costUsd: result.costUsd + skippedCostUsd, ...(fallbacks.length > 0 ? { fallbacks } : {}) };
}

async function agentLoop(input: ExecuteStepInput, model: ModelEntry, deps: ExecutorDeps, signal: AbortSignal): Promise<StepExecution> {
  const { step, context } = input;
  const toolNames = step.tools ?? [];
  for (const name of toolNames) if (!deps.tools[name]) throw invalid(`step ${step.id}: unknown tool ${name}`);
  const maxTurns = step.maxTurns ?? 5;
  const task = stepPrompt(step, context);
  const catalogue = toolNames.map((n) => `- ${n}: ${deps.tools[n]!.description}`).join('\n') || '(none)';
  const turns: AgentTurn[] = [];
  let cost = 0;

  for (let turn = 1; turn <= maxTurns; turn++) {
    const started = Date.now();
    const prompt = `${task}\n\nTools you may call:\n${catalogue}\n\nTranscript so far:\n${transcript(turns)}\n\nTurn ${turn} of ${maxTurns}. Answer with JSON: {"action":"call_tool","tool":...,"arguments":{...}} or {"action":"finish","answer":...}.`;
    const { value, costUsd } = await completeText(step, model, prompt, turnSchema(toolNames), deps, signal, `${step.id}:turn${turn}`);
    cost += costUsd;
    const decision = value as { action: 'call_tool' | 'finish'; tool?: string; arguments?: Record<string, unknown>; answer?: string };
    if (decision.action === 'finish') {
      turns.push({ turn, action: 'finish', answer: decision.answer ?? '', costUsd, durationMs: Date.now() - started });
      return { output: { answer: decision.answer ?? '', turns }, provider: model.provider, model: model.id, costUsd: cost };
    }
    const tool = decision.tool && toolNames.includes(decision.tool) ? deps.tools[decision.tool] : undefined;
    let result: unknown;
    if (!tool) result = { error: `unknown tool ${decision.tool ?? '(none)'}` };
    else {
      try {
        result = (await tool.run(decision.arguments ?? {}, toolContext(input, deps, signal))).output;
      } catch (err) {
        // A bad call is the model's to correct on its next turn.
        if (!(err instanceof ToolInputError)) throw err;
        result = { error: err.message };
      }
    }
    turns.push({
      turn,
      action: 'call_tool',
      tool: decision.tool,
      arguments: decision.arguments ?? {},
      result,
      costUsd,
      durationMs: Date.now() - started,
    });
  }
  throw new StepFailure(
    `step ${step.id}: the agent did not finish within ${maxTurns} turns`,
    'agent_turn_limit',
    cost,
    model.provider,
    model.id,
    { turns },
  );
}
