import type { FormInstance } from 'antd';
import { Form } from 'antd';
import { useCallback, useState } from 'react';
import { isApiError } from '@/api/errors';
import { useErrorText } from '@/shared/errors/errorText';

/** Server keys that belong to the whole form rather than a field. */
const FORM_LEVEL_KEYS = new Set(['non_field_errors', 'detail', '__all__']);

function toNamePath(field: string): (string | number)[] {
  return field.split('.').map((part) => (/^\d+$/.test(part) ? Number(part) : part));
}

/** The field that shows `field`'s messages: itself, else the nearest registered parent (e.g. a list
 * edited by one custom control gets the errors of its items). */
function targetField(field: string, registered: Set<string>): string | null {
  if (FORM_LEVEL_KEYS.has(field)) return null;
  const parts = field.split('.');
  for (let length = parts.length; length > 0; length -= 1) {
    const candidate = parts.slice(0, length).join('.');
    if (registered.has(candidate)) return candidate;
  }
  return null;
}

/**
 * Puts an ApiError's field errors on the form's fields; nested ones (`contacts.1.email`) on the
 * Form.List item's field, or the nearest registered parent. Errors for fields the form does not have,
 * and errors without field detail, come back as one text for the form's alert.
 * Returns null when every message found a field.
 */
export function applyApiErrorToForm<T>(form: FormInstance<T>, error: unknown, fallbackText: (e: unknown) => string): string | null {
  const fieldErrors = isApiError(error) ? error.fieldErrors : null;
  if (!fieldErrors) return fallbackText(error);
  const registered = new Set(form.getFieldsError().map((f) => f.name.join('.')));
  const leftOver: string[] = [];
  const byField = new Map<string, string[]>();
  for (const [field, messages] of Object.entries(fieldErrors)) {
    const target = targetField(field, registered);
    if (target === null) leftOver.push(...messages);
    else byField.set(target, [...(byField.get(target) ?? []), ...messages]);
  }
  const fields = [...byField].map(([field, errors]) => ({ name: toNamePath(field), errors }));
  form.setFields(fields as Parameters<FormInstance<T>['setFields']>[0]);
  if (leftOver.length > 0) return leftOver.join(' ');
  return fields.length > 0 ? null : fallbackText(error);
}

export interface UseApiFormOptions<Values, Result> {
  submit: (values: Values) => Promise<Result>;
  onSuccess?: (result: Result, values: Values) => void;
}

/**
 * An Ant Design form bound to an API call: `onFinish` submits, server field errors land on their
 * fields, anything else becomes `formError` (show it in an Alert above the buttons).
 */
export function useApiForm<Values, Result = unknown>({ submit, onSuccess }: UseApiFormOptions<Values, Result>) {
  const [form] = Form.useForm<Values>();
  const [submitting, setSubmitting] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  const errorText = useErrorText();

  const onFinish = useCallback(
    async (values: Values) => {
      setSubmitting(true);
      setFormError(null);
      try {
        const result = await submit(values);
        onSuccess?.(result, values);
      } catch (error) {
        setFormError(applyApiErrorToForm(form, error, errorText));
      } finally {
        setSubmitting(false);
      }
    },
    [form, submit, onSuccess, errorText],
  );

  return { form, onFinish, submitting, formError, clearFormError: () => setFormError(null) };
}
