// Settings › Budgets: the workspace's budgets with their current spend (GET /v1/budgets), a new one (POST),
// and changing one (PATCH /v1/budgets/{budget_id}). The API has no DELETE for a budget, so neither has
// this page. Creating and changing are for owners and admins; a member's attempt is the API's 403, shown.
import { api, inWorkspace, session } from './api.js';
import { $, announce, fill, h, table, time, usd } from './dom.js';
import { loadInto, onSubmit, usdField } from './settings.js';

const PERIODS = ['month', 'total'];
// The contract's ENFORCEMENT_MODE_VALUES, with what each does when a run or order start would go past the limit.
const MODES = {
  hard_stop: 'hard stop: refuse it',
  allow_overage: 'allow overage: up to the overage amount past the limit',
  allow_one_more: 'allow one more: let one more start, then refuse',
  notify_only: 'notify only: never refuse',
};

const select = (name, values, current, labels = {}) =>
  h(
    'select',
    { name },
    values.map((v) => h('option', { value: v, selected: v === current }, labels[v] ?? v)),
  );

const money = (name, label, value, required = false) =>
  h('label', {}, label, h('input', { name, type: 'number', min: '0', step: '0.01', required, value: value ?? '' }));

/** Fields both forms share; a new budget also picks its scope (it cannot change later). */
function fields(budget, projects) {
  return [
    h('label', {}, 'Name', h('input', { name: 'name', maxlength: '200', value: budget?.name ?? '' })),
    budget
      ? null
      : h(
          'label',
          {},
          'Scope',
          select('scope', ['workspace', ...projects.map((p) => p.id)], 'workspace', {
            workspace: 'this workspace',
            ...Object.fromEntries(projects.map((p) => [p.id, `project ${p.name}`])),
          }),
        ),
    money('limitUsd', 'Limit (USD)', budget?.limitUsd, true),
    h('label', {}, 'Period', select('period', PERIODS, budget?.period ?? 'month')),
    h('label', {}, 'When reached', select('enforcementMode', Object.keys(MODES), budget?.enforcementMode ?? 'hard_stop', MODES)),
    money('overageUsd', 'Overage (USD, for allow overage)', budget?.overageUsd),
    money('perRunCapUsd', 'Per-run cap (USD)', budget?.perRunCapUsd),
  ];
}

function values(data) {
  return {
    limitUsd: usdField(data, 'limitUsd'),
    period: String(data.get('period')),
    enforcementMode: String(data.get('enforcementMode')),
    overageUsd: usdField(data, 'overageUsd'),
    perRunCapUsd: usdField(data, 'perRunCapUsd'),
  };
}

function scopeOf(budget, projects) {
  if (budget.scope !== 'project') return 'workspace';
  const project = projects.find((p) => p.id === budget.projectId);
  return `project ${project?.name ?? budget.projectId}`;
}

/** Opens the change form for one budget; its submit handler (set once in budgetsPage) reads the id back. */
function edit(budget, projects) {
  const form = $('#budget-edit');
  fill(
    form,
    h('h2', { id: 'budget-edit-heading' }, 'Change budget ', h('code', {}, budget.name ?? budget.id)),
    h('div', { class: 'fields' }, fields(budget, projects)),
    h(
      'p',
      { class: 'actions' },
      h('button', { type: 'submit', class: 'primary' }, 'Save'),
      h('button', { type: 'button', onclick: () => (form.hidden = true) }, 'Cancel'),
    ),
  );
  form.dataset.budgetId = budget.id;
  form.hidden = false;
  form.querySelector('input')?.focus();
}

export async function budgetsPage() {
  const target = $('#budgets-table');
  const { items: projects } = await api('GET', `/v1/workspaces/${encodeURIComponent(session.workspaceId)}/projects?limit=100`).catch(
    () => ({ items: [] }), // without projects the page still works for workspace budgets
  );
  const reload = () =>
    loadInto(target, async () => {
      const page = await api('GET', `/v1/budgets?${inWorkspace({ limit: 100 })}`);
      return page.items.length
        ? table(
            ['Name', 'Scope', 'Limit', 'Spent', 'Remaining', 'Period', 'When reached', 'Per-run cap', 'Changed', ''],
            page.items.map((b) => [
              b.name ?? h('span', { class: 'muted' }, b.id),
              scopeOf(b, projects),
              usd(b.limitUsd),
              usd(b.spendUsd),
              usd(b.remainingUsd),
              b.period === 'month' ? 'this month' : 'all time',
              b.enforcementMode.replaceAll('_', ' ') + (b.overageUsd !== null ? ` (+${usd(b.overageUsd)})` : ''),
              b.perRunCapUsd !== null ? usd(b.perRunCapUsd) : '—',
              time(b.updatedAt),
              h('button', { type: 'button', onclick: () => edit(b, projects) }, 'Edit'),
            ]),
            `${page.total} budget${page.total === 1 ? '' : 's'}; spent counts settled costs and the estimates of runs still going`,
          )
        : h('p', { class: 'muted' }, 'This workspace has no budgets: nothing limits its spending but per-order caps.');
    });

  const editForm = $('#budget-edit');
  onSubmit(editForm, async (data) => {
    const name = String(data.get('name') ?? '').trim();
    // Emptied optional fields are cleared (null), not left as they were.
    const v = values(data);
    const body = { ...v, name: name || null, overageUsd: v.overageUsd ?? null, perRunCapUsd: v.perRunCapUsd ?? null };
    const budget = await api('PATCH', `/v1/budgets/${encodeURIComponent(editForm.dataset.budgetId)}`, body);
    editForm.hidden = true;
    announce(`Saved the budget ${budget.name ?? budget.id}.`, 'ok');
    await reload();
  });

  const createForm = $('#budget-create');
  fill(
    createForm,
    h('h2', { id: 'budget-create-heading' }, 'New budget'),
    h('div', { class: 'fields' }, fields(null, projects)),
    h('p', { class: 'actions' }, h('button', { type: 'submit', class: 'primary' }, 'Create budget')),
  );
  onSubmit(createForm, async (data) => {
    const scope = String(data.get('scope'));
    const name = String(data.get('name') ?? '').trim();
    const body = {
      ...values(data),
      workspaceId: session.workspaceId,
      scope: scope === 'workspace' ? 'workspace' : 'project',
      ...(scope === 'workspace' ? {} : { projectId: scope }),
      ...(name ? { name } : {}),
    };
    const budget = await api('POST', '/v1/budgets', body);
    createForm.reset();
    announce(`Created the budget ${budget.name ?? budget.id}.`, 'ok');
    await reload();
  });
  await reload();
}
